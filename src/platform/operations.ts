import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/database.ts';
import { ApiError, ERROR_CODES, problemType } from './errors.ts';
import { sendProblem } from './http-errors.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** The error catalogue page: every problem `type` URI (`/docs/errors#<code>`) resolves to an entry here. */
export function errorCatalogueHtml(): string {
  const entries = Object.entries(ERROR_CODES)
    .map(([code, e]) => `<section id="${code}"><h2><code>${code}</code> — ${e.status} ${escapeHtml(e.title)}</h2><p>${inlineCode(e.description)}</p><p>Problem type: <code>${problemType(code as keyof typeof ERROR_CODES)}</code></p></section>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plinth errors</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;line-height:1.5}section{border-top:1px solid #ddd}:target{background:#fff8d0}</style></head>
<body><h1>Plinth error catalogue</h1><p>Every error is an RFC 9457 problem (<code>application/problem+json</code>). Switch on <code>code</code>; <code>title</code> and <code>detail</code> are for people.</p>
${entries}</body></html>`;
}

const Status = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });

/** Operator routes, outside /v1 and without authentication. */
export function installOperations(app: FastifyInstance, database: Database): void {
  const common = { tags: ['Operations'], security: [] };
  app.get('/healthz', {
    schema: { ...common, operationId: 'getHealth', summary: 'Liveness: 200 while the process runs', response: { 200: { ...Status, description: 'The process is running.' } } },
  }, async () => ({ status: 'ok' }));
  app.get('/readyz', {
    schema: { ...common, operationId: 'getReadiness', summary: 'Readiness: 200 only when the database answers', response: { 200: { ...Status, description: 'The database answers.' } } },
  }, async (_request, reply) => {
    if (await database.ping()) return { status: 'ok' };
    return sendProblem(reply, new ApiError('service_unavailable', 'The database does not answer.', { headers: { 'retry-after': '1' } }));
  });
}
