import { readdirSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const read = (path: string) => readFileSync(new URL(`./assets/${path}`, import.meta.url), 'utf8');

/**
 * The one stylesheet and the one script, read once; served from this origin like every page (no-store too). The
 * stylesheet is kept in a few files by subject (assets/css/, joined in name order) and served as one.
 */
const css = readdirSync(new URL('./assets/css/', import.meta.url))
  .filter((name) => name.endsWith('.css'))
  .sort()
  .map((name) => read(`css/${name}`))
  .join('');
const ASSETS: Record<string, { type: string; body: string }> = {
  'dashboard.css': { type: 'text/css; charset=utf-8', body: css },
  'dashboard.js': { type: 'application/javascript; charset=utf-8', body: read('dashboard.js') },
};

export function installAssets(scope: FastifyInstance): void {
  for (const [name, asset] of Object.entries(ASSETS)) {
    scope.get(
      `/assets/${name}`,
      { config: { dashboardPublic: true }, schema: { hide: true } },
      async (_request, reply) => reply.type(asset.type).send(asset.body),
    );
  }
}
