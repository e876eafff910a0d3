import { type Kysely, sql } from 'kysely';

/**
 * An Idempotency-Key's scope is the API key that sent it (docs/api.md#safe-retries-idempotency-key): another key of
 * the same org and mode sending the same value makes its own request. The primary key becomes (api key, value): a
 * primary key cannot be altered on SQLite, so the table is made again and its rows copied. A stored response's key
 * is the one its request's log entry names (`request_logs.api_key_id`, same request id); a response whose entry is
 * gone (the log switched off, or the entry dropped under a flood) can no longer be told apart from another key's, and
 * is deleted rather than answered to every key of its org: a retry of that request runs again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await createTable(db, 'idempotency_keys_scoped', ['api_key_id', 'key']);
  await sql`insert into idempotency_keys_scoped
      (org_id, mode, api_key_id, key, fingerprint, request_id, response_status, response_body, created_at)
    select i.org_id, i.mode, r.api_key_id, i.key, i.fingerprint, i.request_id, i.response_status, i.response_body,
      i.created_at
    from idempotency_keys as i join request_logs as r on r.id = i.request_id
    where r.org_id = i.org_id and r.mode = i.mode`.execute(db);
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.alterTable('idempotency_keys_scoped').renameTo('idempotency_keys').execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
}

/** Back to one scope per org and mode: where two keys stored the same value, the first stored is kept. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await createTable(db, 'idempotency_keys_org', ['org_id', 'mode', 'key']);
  await sql`insert into idempotency_keys_org
      (org_id, mode, key, fingerprint, request_id, response_status, response_body, created_at)
    select org_id, mode, key, fingerprint, request_id, response_status, response_body, created_at
    from idempotency_keys where true order by created_at
    on conflict do nothing`.execute(db);
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.alterTable('idempotency_keys_org').renameTo('idempotency_keys').execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();
}

async function createTable(db: Kysely<unknown>, name: string, primaryKey: string[]): Promise<void> {
  let table = db.schema
    .createTable(name)
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('mode', 'text', (c) => c.notNull());
  if (primaryKey.includes('api_key_id')) table = table.addColumn('api_key_id', 'text', (c) => c.notNull());
  await table
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${name}_pk`, primaryKey as never)
    .execute();
}
