/** The PostgreSQL the bench may use: BENCH_POSTGRES_URL, or the local test server when it answers; a database of its own. */
import pg from 'pg';

const LOCAL = 'postgres://postgres:postgres@127.0.0.1:5432/test';

/** The server to use, or null when none answers (the PostgreSQL phases are then skipped and said so). */
export async function postgresServer(): Promise<string | null> {
  const url = process.env.BENCH_POSTGRES_URL ?? LOCAL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return url;
  } catch (error) {
    if (process.env.BENCH_POSTGRES_URL) throw error;
    return null;
  }
}

/** Creates a fresh database on that server; answers its URL and a function that drops it. */
export async function scratchDatabase(serverUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** The settings that decide whether a commit is durable, as the server reports them. */
export async function durability(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    `select name, setting from pg_settings where name in ('fsync', 'synchronous_commit', 'max_connections')`,
  );
  await client.end();
  return rows.map((r: { name: string; setting: string }) => `${r.name}=${r.setting}`).join(', ');
}
