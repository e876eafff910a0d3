/**
 * Where each language's README examples go (scripts/clients/readme.ts copies them): the file, under clients/<lang>/,
 * whose `readme-examples:start` … `readme-examples:end` lines receive them, and how one example is wrapped there so
 * that the language's conformance.sh compiles or runs it. Each file's header says what it gives the examples.
 */
export interface Examples {
  /** The fence's info string of the README's blocks, e.g. ```go. */
  tag: string;
  /** The file (under clients/<lang>/) with the markers, compiled by the language's build. */
  file: string;
  /** The opening line(s) of the function that holds example n; the block is indented by `indent`. */
  open: (n: number) => string;
  close: string;
  indent: string;
  /** Lines that must sit at the top level (imports), moved from the blocks to the top of the marked region. */
  hoist?: RegExp;
}

/** What the PHP examples' closures capture: PHP closures see only what `use` names. */
const PHP_USES = '$plinth, $a, $b, $accountId, $transfer, $endpointId, $headers, $rawBody';

/** What the Rust examples are given (examples/readme.rs says what each is). */
const RUST_PARAMS =
  'plinth: &Client, a: String, b: String, id: String, account_id: String, endpoint_id: String, t: Transfer, ' +
  'url: &str, transfer: CreateTransferRequest, secret: String, headers: HeaderMap, body: Vec<u8>';

/** Per language: where its README's examples are compiled (see each file's header for how). */
export const EXAMPLES: Record<string, Examples> = {
  go: {
    tag: 'go',
    file: 'cmd/readme-examples/main.go',
    open: (n) => `func example${n}() {`,
    close: '}',
    indent: '\t',
  },
  java: {
    tag: 'java',
    file: 'conformance/dev/plinth/conformance/ReadmeExamples.java',
    open: (n) => `  static void example${n}() throws Exception {`,
    close: '  }',
    indent: '    ',
    hoist: /^import /,
  },
  kotlin: {
    tag: 'kotlin',
    file: 'conformance/dev/plinth/conformance/ReadmeExamples.kt',
    open: (n) => `internal fun readmeExample${n}() {`,
    close: '}',
    indent: '    ',
    hoist: /^import /,
  },
  perl: {
    tag: 'perl',
    file: 'readme-examples.pl',
    open: () => 'push @examples, sub {',
    close: '};',
    indent: '    ',
  },
  php: {
    tag: 'php',
    file: 'readme-examples.php',
    open: () => `$examples[] = function () use (${PHP_USES}): void {`,
    close: '};',
    indent: '    ',
  },
  python: {
    tag: 'python',
    file: 'conformance/readme_examples.py',
    open: (n) => `def example_${n}():`,
    close: '',
    indent: '    ',
  },
  ruby: {
    tag: 'ruby',
    file: 'readme_examples.rb',
    open: () => 'EXAMPLES << proc do',
    close: 'end',
    indent: '  ',
  },
  rust: {
    tag: 'rust',
    file: 'examples/readme.rs',
    open: (n) => `pub async fn example${n}(${RUST_PARAMS}) -> Result<(), Box<dyn std::error::Error>> {`,
    close: '    Ok(())\n}',
    indent: '    ',
  },
  typescript: {
    tag: 'ts',
    file: 'conformance/readme-examples.ts',
    open: (n) => `examples.push(async function example${n}(): Promise<void> {`,
    close: '});',
    indent: '  ',
    hoist: /^import /,
  },
};
