import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { type ErrorCode, errorCodes, problemType } from '../http/errors.ts';
import { DOCS_CSP, installDocAssets } from './assets.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The error catalogue page: every problem `type` URI (`/docs/errors#<code>`) resolves to an entry here. */
export function errorCatalogueHtml(): string {
  const entries = Object.entries(errorCodes())
    .map(
      ([code, e]) =>
        `<section id="${code}"><h2><code>${code}</code> — ${e.status} ${escapeHtml(e.title)}</h2><p>${inlineCode(e.description)}</p><p>Problem type: <code>${problemType(code as ErrorCode)}</code></p></section>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plinth errors</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;line-height:1.5}section{border-top:1px solid #ddd}:target{background:#fff8d0}</style></head>
<body><h1>Plinth error catalogue</h1><p>Every error is an RFC 9457 problem (<code>application/problem+json</code>). Switch on <code>code</code>; <code>title</code> and <code>detail</code> are for people.</p>
${entries}</body></html>`;
}

const html = (description: string) => ({
  200: { description, content: { 'text/html': { schema: { type: 'string' } } } },
});

const REDOCLY_BADGE = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')}`;

const REFERENCE_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plinth API reference</title><link rel="icon" href="/favicon.ico"><style>body{margin:0}</style></head>
<body><div id="reference"></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/reference.js"></script>
</body></html>`;

/**
 * The OpenAPI document and its renderings. Every asset is served from here (Redoc's standalone bundle comes
 * from the `redoc` package), so the reference works offline and behind any firewall.
 */
export function installDocs(app: FastifyInstance): void {
  installDocAssets(app);
  let document: string | undefined;
  app.get(
    '/v1/openapi.json',
    {
      config: { public: true },
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI 3.1 document',
        tags: ['Documentation'],
        security: [],
        response: { 200: { description: 'The OpenAPI 3.1 document describing this API.', type: 'object' } },
      },
    },
    async (_request, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply.type('application/json; charset=utf-8').send(document);
    },
  );

  app.get(
    '/docs',
    {
      schema: {
        operationId: 'getApiReference',
        summary: 'The API reference, rendered',
        tags: ['Documentation'],
        security: [],
        response: html('An HTML page rendering this document with Redoc.'),
      },
    },
    async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(REFERENCE_HTML),
  );

  const catalogue = errorCatalogueHtml();
  app.get(
    '/docs/errors',
    {
      schema: {
        operationId: 'getErrorCatalogue',
        summary: 'The error catalogue',
        tags: ['Documentation'],
        security: [],
        response: html('An HTML page with one entry per error code; each problem `type` links to its entry.'),
      },
    },
    async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(catalogue),
  );

  let bundle: string | undefined;
  app.get(
    '/docs/redoc.standalone.js',
    {
      schema: {
        operationId: 'getReferenceRenderer',
        summary: 'The script that renders the API reference',
        tags: ['Documentation'],
        security: [],
        response: {
          200: {
            description: "Redoc's standalone bundle.",
            content: { 'application/javascript': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (_request, reply) => {
      bundle ??= readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8')
        // The bundle's one remote asset, the "API docs by Redocly" badge, is replaced so that nothing leaves this
        // server.
        .replace('https://cdn.redoc.ly/redoc/logo-mini.svg', REDOCLY_BADGE);
      return reply
        .type('application/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(bundle);
    },
  );
}
