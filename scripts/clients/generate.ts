/**
 * `npm run clients`: regenerates every client library from openapi/openapi.json.
 *
 *   1. derives the SDK view (scripts/clients/sdk-view.ts) → clients/openapi.sdk.json and clients/openapi.sdk.3.0.json;
 *   2. for every clients/<lang>/client.json, wipes clients/<lang>/generated/ and writes it anew;
 *   3. writes each language's per-operation layer and methods.json from the same view (layers/layers.ts: a template
 *      per language in scripts/clients/layers/).
 *
 * client.json says how, e.g.
 *   {"generator": "openapi-generator", "generatorName": "python", "input": "3.1",
 *    "additionalProperties": {"packageName": "plinth_generated"}, "globalProperties": {"apiTests": "false"},
 *    "ignore": ["git_push.sh", "test/**"]}
 * or, for a generator other than OpenAPI Generator,
 *   {"generator": "command", "input": "3.1", "command": ["node_modules/.bin/x", "{input}", "-o", "{output}"]}
 * `ignore` lines are written to generated/.openapi-generator-ignore first, so OpenAPI Generator skips files (test
 * stubs, build files the hand-written layer replaces) that have no place in this repository. DEFAULT_IGNORE is always
 * added: a generated .gitignore would hide generated files from git (Python's ignores lib/, build/, …, so a fresh
 * clone would lack them), and CI files or git_push.sh mean nothing inside a subdirectory of this repository.
 *
 * All OpenAPI Generator languages run in ONE `batch` call: one JVM start (a few seconds) instead of one per language.
 *
 *   node scripts/clients/generate.ts [--out DIR] [--only go,python]
 * --out writes the views and every <lang>/generated/ under DIR instead of clients/ (the drift test compares the two).
 * Without --out it then rewrites each README's method table and examples file (readme.ts) from the fresh views.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeLayers } from './layers/layers.ts';
import { writeReadmes } from './readme.ts';
import { writeInstantsView, writeSdkViews } from './sdk-view.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLIENTS = join(ROOT, 'clients');
const WRAPPER = join(ROOT, 'scripts/clients/openapi-generator.sh');
const DEFAULT_IGNORE = ['.gitignore', 'git_push.sh', '.travis.yml', '.gitlab-ci.yml', '.github/**'];

interface ClientConfig {
  generator: 'openapi-generator' | 'command';
  generatorName?: string;
  input: '3.1' | '3.0';
  additionalProperties?: Record<string, unknown>;
  globalProperties?: Record<string, string>;
  ignore?: string[];
  command?: string[];
  // --- added by the Go/Rust/Perl clients helper ---------------------------------------------------------------
  // OpenAPI Generator's own per-language renames (its `modelNameMappings` option), passed through to the batch file.
  // Go needs it: its model constructors are `New<Model>`, so the model `NewApiKey` collides with the constructor
  // `NewApiKey()` of the model `ApiKey` and the package does not compile. Renaming it in the SDK view would rename it
  // for every language; this renames it only where a client.json asks.
  modelNameMappings?: Record<string, string>;
  // --- Python's typing --------------------------------------------------------------------------------------------
  // OpenAPI Generator's property renames (`nameMappings`): Python's generator names the property `from` (a keyword)
  // `var_from`; the client asks for `from_`, the spelling its methods use.
  nameMappings?: Record<string, string>;
  // "date-time": the language gets a view of its own whose response times are `format: date-time` (sdk-view.ts, 7).
  instants?: 'date-time';
}

export function languages(): { lang: string; config: ClientConfig }[] {
  return readdirSync(CLIENTS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(CLIENTS, entry.name, 'client.json')))
    .map((entry) => ({
      lang: entry.name,
      config: JSON.parse(readFileSync(join(CLIENTS, entry.name, 'client.json'), 'utf8')) as ClientConfig,
    }))
    .sort((a, b) => a.lang.localeCompare(b.lang));
}

function run(command: string, args: string[], what: string): void {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`${what} failed (exit ${result.status ?? result.signal})`);
  }
}

export async function generate(outDir: string, only?: string[]): Promise<void> {
  const started = Date.now();
  writeSdkViews(outDir);
  const chosen = languages().filter(({ lang }) => !only || only.includes(lang));
  const batch: string[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'plinth-generate-'));
  try {
    for (const { lang, config } of chosen) {
      let input = join(outDir, config.input === '3.0' ? 'openapi.sdk.3.0.json' : 'openapi.sdk.json');
      if (config.instants === 'date-time') {
        input = join(scratch, `${lang}.sdk.json`);
        writeInstantsView(input, config.input);
      }
      const output = join(outDir, lang, 'generated');
      rmSync(output, { recursive: true, force: true });
      mkdirSync(output, { recursive: true });
      writeFileSync(
        join(output, '.openapi-generator-ignore'),
        `${[...DEFAULT_IGNORE, ...(config.ignore ?? [])].join('\n')}\n`,
      );
      if (config.generator === 'openapi-generator') {
        if (!config.generatorName) throw new Error(`clients/${lang}/client.json: generatorName is missing`);
        const file = join(scratch, `${lang}.json`);
        writeFileSync(
          file,
          JSON.stringify({
            generatorName: config.generatorName,
            inputSpec: input,
            outputDir: output,
            additionalProperties: config.additionalProperties ?? {},
            globalProperties: config.globalProperties ?? {},
            ...(config.modelNameMappings ? { modelNameMappings: config.modelNameMappings } : {}), // see ClientConfig
            ...(config.nameMappings ? { nameMappings: config.nameMappings } : {}),
          }),
        );
        batch.push(file);
      } else if (config.generator === 'command' && config.command?.length) {
        const [command, ...args] = config.command.map((arg) =>
          arg.replaceAll('{input}', input).replaceAll('{output}', output),
        );
        run(command!, args, `clients/${lang}: ${config.command[0]}`);
        process.stdout.write(`generated ${lang} (${config.command[0]})\n`);
      } else {
        throw new Error(`clients/${lang}/client.json: unknown generator ${JSON.stringify(config.generator)}`);
      }
    }
    if (batch.length > 0) {
      // Two threads: the machine has two cores, and generation is CPU-bound.
      run(
        WRAPPER,
        ['batch', '--fail-fast', '--threads', '2', '--root-dir', scratch, '--', ...batch],
        'openapi-generator batch',
      );
      for (const { lang, config } of chosen) {
        if (config.generator === 'openapi-generator')
          process.stdout.write(`generated ${lang} (openapi-generator ${config.generatorName})\n`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  for (const lang of await writeLayers(
    outDir,
    outDir,
    chosen.map(({ lang }) => lang),
  ))
    process.stdout.write(`generated ${lang}'s per-operation layer (scripts/clients/layers/${lang}.ts)\n`);
  if (resolve(outDir) === CLIENTS)
    writeReadmes(
      CLIENTS,
      chosen.map(({ lang }) => lang),
    );
  process.stdout.write(`clients generated in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } });
  await generate(
    resolve(values.out ?? CLIENTS),
    values.only?.split(',').map((s) => s.trim()),
  );
}
