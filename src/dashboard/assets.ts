import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

/** The one stylesheet and the one script, read once; served from this origin like every page (no-store too). */
const ASSETS: Record<string, { type: string; body: string }> = {
  'dashboard.css': { type: 'text/css; charset=utf-8', body: '' },
  'dashboard.js': { type: 'application/javascript; charset=utf-8', body: '' },
};
for (const [name, asset] of Object.entries(ASSETS))
  asset.body = readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

export function installAssets(scope: FastifyInstance): void {
  for (const [name, asset] of Object.entries(ASSETS)) {
    scope.get(
      `/assets/${name}`,
      { config: { dashboardPublic: true }, schema: { hide: true } },
      async (_request, reply) => reply.type(asset.type).send(asset.body),
    );
  }
}
