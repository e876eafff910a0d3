import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** The reference as Redoc renders it on a server: markup, its styles, and the state the script hydrates from. */
export interface Reference {
  html: string;
  css: string;
  state: unknown;
}

const require = createRequire(import.meta.url);
const REDOC_VERSION: string = require('redoc/package.json').version;
const CACHE = new URL('../../../.tmp/docs/', import.meta.url);

const REDOC_OPTIONS = { expandResponses: '200', jsonSampleExpandLevel: 3, hideDownloadButton: false };
/** Where the document is downloaded from: on the server and in the browser alike, so that hydration matches. */
const SPEC_URL = '/v1/openapi.json';

/** The "API docs by Redocly" badge's one remote asset, replaced so that the page fetches nothing from elsewhere. */
export const REDOCLY_BADGE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')}`;

/**
 * Redoc's server-side rendering (what `redocly build-docs` does): the page reads without JavaScript, and the
 * standalone bundle hydrates it. React, Redoc and styled-components load only here, when a render is needed.
 */
async function render(document: object): Promise<Reference> {
  const React = require('react');
  const { renderToString } = require('react-dom/server');
  const { ServerStyleSheet } = require('styled-components');
  const { Redoc, createStore } = require('redoc');
  const store = await createStore(document, SPEC_URL, REDOC_OPTIONS);
  const sheet = new ServerStyleSheet();
  try {
    const html: string = renderToString(sheet.collectStyles(React.createElement(Redoc, { store })));
    return {
      html: html.replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', REDOCLY_BADGE),
      css: sheet.getStyleTags(),
      state: await store.toJS(),
    };
  } finally {
    sheet.seal();
  }
}

/**
 * The rendered reference of this document. Rendering takes about 2 s of CPU, so the result is kept in
 * .tmp/docs/ under the hash of the document, Redoc's version and options: a server started on the same document reads
 * it back in milliseconds. A cache that cannot be written (a read-only install) only costs the render each start.
 */
export async function renderedReference(document: string): Promise<Reference> {
  const hash = createHash('sha256')
    .update(JSON.stringify([REDOC_VERSION, REDOC_OPTIONS, SPEC_URL, document]))
    .digest('hex')
    .slice(0, 32);
  const file = new URL(`reference-${hash}.json`, CACHE);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Reference;
  } catch {
    // not rendered yet (or unreadable): render it below
  }
  const reference = await render(JSON.parse(document));
  try {
    mkdirSync(CACHE, { recursive: true });
    // Written under a unique name and renamed, so that a concurrent start never reads half a file.
    const partial = new URL(`reference-${hash}.${process.pid}.partial`, CACHE);
    writeFileSync(partial, JSON.stringify(reference));
    renameSync(partial, file);
  } catch {
    // a read-only install: the next start renders again
  }
  return reference;
}
