import type { FastifyInstance } from 'fastify';

/**
 * The documentation pages may load only what this server serves (docs/api.md#the-wire). Redoc injects its styles as
 * <style> elements at run time (styled-components), so styles need 'unsafe-inline'; scripts do not: Redoc's init
 * is a served file (below), not an inline script. `data:` covers the badge image Redoc's bundle carries inline and
 * the fonts it embeds; `blob:` the search worker Redoc builds from its own bundle.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// A 16×16 icon (a plinth), PNG inside an ICO container: 118 bytes, so it lives here rather than in a file.
const FAVICON = Buffer.from(
  'AAABAAEAEBAAAAEAIABgAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAQAAAAEAgGAAAAH/P/YQAAACdJREFUeNpjkNc0/08JZhimBjx68QEr' +
    'HjVg0BuASxMhwwaRAQOWFwC+EiwZ+WzpQwAAAABJRU5ErkJggg==',
  'base64',
);

const asset = (operationId: string, summary: string, type: string, description: string) => ({
  schema: {
    operationId,
    summary,
    tags: ['Documentation'],
    security: [],
    response: { 200: { description, content: { [type]: { schema: { type: 'string' } } } } },
  },
});

/**
 * Small assets of the documentation pages: the script that hydrates the server-rendered reference with the state
 * it was rendered from (`script()`, known once the server is ready: reference.ts), and the site icon.
 */
export function installDocAssets(app: FastifyInstance, script: () => Buffer | undefined): void {
  app.get(
    '/docs/reference.js',
    asset('getReferenceInit', 'The script that starts the API reference', 'application/javascript', 'Redoc.hydrate.'),
    async (_request, reply) =>
      reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').send(script()),
  );
  app.get(
    '/favicon.ico',
    asset('getFavicon', 'The site icon', 'image/x-icon', 'A 16×16 icon.'),
    async (_request, reply) =>
      reply.type('image/x-icon').header('cache-control', 'public, max-age=86400').send(FAVICON),
  );
}
