/**
 * The generated per-operation layers of the clients: every other file of this directory (but model.ts and this
 * one) is one language's template, found by reading the directory, and default-exports a `Template`. Each is fed
 * the same model (model.ts) and returns the files it makes, by path under clients/<lang>/; `owns` names the
 * directories that hold nothing else, which are emptied first so an operation removed from the document leaves no
 * file behind. Every template writes its language's methods.json (the manifest coverage.ts and the README tables
 * read) from the same model, so the manifest cannot disagree with the code.
 *
 *   node scripts/clients/layers/layers.ts [--out DIR] [--only go,python]   (generate.ts runs it after the generator)
 *
 * --out writes under DIR/<lang>/ instead of clients/<lang>/, from the committed SDK view: test/clients/layers.test.ts
 * compares the two. No JVM and no toolchain: it takes about a second.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel, type Template } from './model.ts';

export type { Template };

const HERE = import.meta.dirname;
export const CLIENTS = resolve(HERE, '../../../clients');

/** Every template in this directory, by language. */
export async function templates(): Promise<Template[]> {
  const files = readdirSync(HERE).filter((f) => f.endsWith('.ts') && !['model.ts', 'layers.ts'].includes(f));
  const loaded = await Promise.all(files.map(async (f) => (await import(join(HERE, f))).default as Template));
  return loaded.sort((a, b) => a.lang.localeCompare(b.lang));
}

/**
 * The files every template makes of the SDK view in `viewDir` (default clients/): template → path → text. The
 * hand-written code a template looks at is always the committed one, in clients/<lang>/.
 */
export async function renderAll(viewDir = CLIENTS, only?: string[]): Promise<Map<Template, Record<string, string>>> {
  const ops = loadModel(viewDir);
  const out = new Map<Template, Record<string, string>>();
  for (const template of await templates()) {
    if (only && !only.includes(template.lang)) continue;
    out.set(template, template.render(ops, join(CLIENTS, template.lang)));
  }
  return out;
}

/** Writes every layer under `outDir/<lang>/`, emptying the directories each template owns first. */
export async function writeLayers(outDir: string, viewDir = outDir, only?: string[]): Promise<string[]> {
  const written: string[] = [];
  for (const [template, files] of await renderAll(viewDir, only)) {
    const root = join(outDir, template.lang);
    for (const dir of template.owns) rmSync(join(root, dir), { recursive: true, force: true });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    written.push(template.lang);
  }
  return written;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } });
  const langs = await writeLayers(
    resolve(values.out ?? CLIENTS),
    CLIENTS,
    values.only?.split(',').map((s) => s.trim()),
  );
  process.stdout.write(`layers generated: ${langs.join(', ')}\n`);
}
