import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { writeFileDurably } from '../kit/durable-file.ts';
import { noScriptContents } from './contents.ts';

/** The reference as served: the page Redoc rendered on the server, and the script that hydrates it. */
export interface Reference {
  page: string;
  script: string;
}

const require = createRequire(import.meta.url);
const REDOC_VERSION: string = require('redoc/package.json').version;
const CACHE = new URL('../../../.tmp/docs/', import.meta.url);
const REDOC_OPTIONS = { expandResponses: '200', jsonSampleExpandLevel: 3, hideDownloadButton: false };
/** Where the document is downloaded from: on the server and in the browser alike, so that hydration matches. */
const SPEC_URL = '/v1/openapi.json';
/** The code that shapes the page around Redoc's markup: a change to it is a new render, like a change to the document. */
const RENDERER = ['reference.ts', 'contents.ts'].map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'));

/** The "API docs by Redocly" badge's one remote asset, replaced so that the page fetches nothing from elsewhere. */
export const REDOCLY_BADGE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')}`;

const page = (css: string, markup: string, contents: { style: string; nav: string }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plinth API reference</title><link rel="icon" href="/favicon.ico">${css}<style>body{margin:0}</style>${contents.style}</head>
<body>${contents.nav}<div id="reference">${markup}</div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/reference.js"></script>
</body></html>`;

/**
 * Redoc's server-side rendering (what `redocly build-docs` does): the page reads without JavaScript, and the
 * standalone bundle hydrates it from the same state. React, Redoc and styled-components load only here, in the
 * process of render-reference.ts (see `renderApart`).
 */
export async function render(document: object): Promise<Reference> {
  const React = require('react');
  const { renderToString } = require('react-dom/server');
  const { ServerStyleSheet } = require('styled-components');
  const { Redoc, createStore } = require('redoc');
  const store = await createStore(document, SPEC_URL, REDOC_OPTIONS);
  const sheet = new ServerStyleSheet();
  try {
    const markup: string = renderToString(sheet.collectStyles(React.createElement(Redoc, { store })));
    const state = JSON.stringify(await store.toJS());
    return {
      page: page(
        sheet.getStyleTags(),
        markup.replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', REDOCLY_BADGE),
        noScriptContents(store.menu.items),
      ),
      script: `Redoc.hydrate(${state}, document.getElementById('reference'));\n`,
    };
  } finally {
    sheet.seal();
  }
}

/**
 * The render, in a process of its own (render-reference.ts: the document on its stdin, the reference as JSON on its
 * stdout). In the server's process it took about 200 MB of heap: the server's resident memory peaked near 380 MiB on
 * every start with a document not yet rendered (the first start after a change to the API), and what React and Redoc
 * left loaded stayed for as long as the server ran.
 */
function renderApart(document: string): Promise<Reference> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./render-reference.ts', import.meta.url))], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-2000);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0)
        return reject(new Error(`rendering the API reference failed (${signal ?? `exit ${code}`}): ${errors}`));
      try {
        resolve(JSON.parse(Buffer.concat(out).toString()) as Reference);
      } catch (error) {
        reject(error);
      }
    });
    child.stdin.end(document);
  });
}

/**
 * Written under a unique name, synced and renamed (writeFileDurably), so that a concurrent start never reads half a
 * file, nor a start after a power cut an empty one.
 */
function writeAtomically(file: URL, text: string): void {
  writeFileDurably(fileURLToPath(file), text);
}

/** Keeps the newest renders only: each is 2 MB, and every change to the document makes a new one. */
function prune(keep = 4): void {
  const files = readdirSync(CACHE)
    .filter((name) => name.startsWith('reference-'))
    .map((name) => ({ url: new URL(name, CACHE), time: statSync(new URL(name, CACHE)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const old of files.slice(keep * 2)) rmSync(old.url, { force: true });
}

/**
 * The rendered reference of this document. Rendering takes about 2 s of CPU, so the result is kept in
 * .tmp/docs/ under the hash of the document, Redoc's version and options and this page's code: a server started on
 * the same document reads it back in milliseconds. A cache that cannot be written (a read-only install) only costs the render each start.
 */
export async function renderedReference(document: string): Promise<Reference> {
  const hash = createHash('sha256')
    .update(JSON.stringify([REDOC_VERSION, REDOC_OPTIONS, SPEC_URL, RENDERER, document]))
    .digest('hex')
    .slice(0, 32);
  const [html, js] = [new URL(`reference-${hash}.html`, CACHE), new URL(`reference-${hash}.js`, CACHE)];
  try {
    return { page: readFileSync(html, 'utf8'), script: readFileSync(js, 'utf8') };
  } catch {
    // not rendered yet (or unreadable): render it below
  }
  const reference = await renderApart(document);
  try {
    mkdirSync(CACHE, { recursive: true });
    writeAtomically(js, reference.script); // the script first: a page found means its script is there too
    writeAtomically(html, reference.page);
    prune();
  } catch {
    // a read-only install: the next start renders again
  }
  return reference;
}
