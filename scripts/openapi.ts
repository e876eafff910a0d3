/**
 * Writes openapi/openapi.json from the route schemas, then the TypeScript client's types from that file.
 * `npm run openapi` runs it; a test fails when either committed file differs from what this produces.
 */
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/open.ts';

export async function generateDocument(): Promise<string> {
  const database = openDatabase('sqlite::memory:');
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: 'sqlite::memory:' }),
    database,
  });
  await app.ready();
  const text = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  await database.close();
  return text;
}

if (import.meta.main) {
  writeFileSync(new URL('../openapi/openapi.json', import.meta.url), await generateDocument());
}
