import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { DOCS_CSP, installDocAssets } from './assets.ts';
import { errorCatalogueHtml } from './errors-page.ts';
import { REDOCLY_BADGE, type Reference, renderedReference } from './reference.ts';

const html = (description: string) => ({
  200: { description, content: { 'text/html': { schema: { type: 'string' } } } },
});

/**
 * The OpenAPI document and its renderings. Every asset is served from here (Redoc's standalone bundle comes
 * from the `redoc` package), so the reference works offline and behind any firewall. The reference is rendered
 * when the server starts (reference.ts: about 2 s the first time for a document, then read from its cache).
 */
export function installDocs(app: FastifyInstance): void {
  // Held as UTF-8 bytes, not strings: the page and its script have characters past Latin-1, so V8 would keep them at
  // two bytes a character in the heap (about 8 MB for the three), which the garbage collector then counts as live.
  let document: Buffer | undefined;
  let reference: { page: Buffer; script: Buffer } | undefined;
  const served = () => {
    document ??= Buffer.from(JSON.stringify(app.swagger()));
    return document;
  };
  app.addHook('onReady', async () => {
    const rendered: Reference = await renderedReference(served().toString());
    reference = { page: Buffer.from(rendered.page), script: Buffer.from(rendered.script) };
  });
  installDocAssets(app, () => reference?.script);
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
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(served()),
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
      reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP).send(reference?.page),
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

  let bundle: Buffer | undefined;
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
      bundle ??= Buffer.from(
        readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8').replace(
          'https://cdn.redoc.ly/redoc/logo-mini.svg',
          REDOCLY_BADGE,
        ),
      );
      return reply
        .type('application/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(bundle);
    },
  );
}
