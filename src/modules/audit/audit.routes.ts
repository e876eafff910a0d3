import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.ts';
import { needs } from '../../platform/auth/permissions.ts';
import { Ref } from '../../platform/kit/schema.ts';
import type { Owner } from '../../platform/operations/context.ts';
import { declareRead, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { genesisHash } from '../../platform/outbox/chain.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import {
  type AuditChainLink,
  AuditChainLink as AuditChainLinkSchema,
  AuditChainPage,
  AuditChainQuery,
  type AuditCheckpoint,
  AuditCheckpoint as AuditCheckpointSchema,
  type AuditPublicKey,
  AuditPublicKey as AuditPublicKeySchema,
} from './audit.schema.ts';
import { type AuditKeysTable, activeKey, allKeys, publicKeyView, signingKeys } from './keys.ts';
import { type SigningKey, signCheckpoint } from './note.ts';
import { originOf } from './verify.ts';

type List<T> = { object: 'list'; data: T[]; has_more: boolean };

const TAG = 'Audit';

/** The audit trail's operations (docs/api.md#verifying-the-history). */
export const auditOps = {
  listAuditChain: declareRead({
    method: 'GET',
    path: '/v1/audit/chain',
    permission: needs('events', 'read'),
    schema: {
      operationId: 'listAuditChain',
      'x-plinth-sdk': { resource: 'audit', method: 'listChain' },
      tags: [TAG],
      summary: 'Page the hash chain of events',
      description:
        "Oldest first: each event's `sequence`, id and the SHA-256 of its body. Kept forever, after bodies expire.",
      querystring: AuditChainQuery,
      response: { 200: Ref<List<AuditChainLink>>('AuditChainPage') },
    },
  }),
  retrieveAuditCheckpoint: declareRead({
    method: 'GET',
    path: '/v1/audit/checkpoint',
    permission: needs('events', 'read'),
    schema: {
      operationId: 'retrieveAuditCheckpoint',
      'x-plinth-sdk': { resource: 'audit', method: 'retrieveCheckpoint' },
      tags: [TAG],
      summary: 'A signed checkpoint of the chain',
      description:
        'The chain as it stands (every event committed before the request), signed by the checkpoint key. Keep it: ' +
        '`cli audit verify --checkpoint` and the verifier in the guide check that a later chain extends it.',
      response: { 200: Ref<AuditCheckpoint>('AuditCheckpoint') },
    },
  }),
  retrieveAuditPublicKey: declareRead({
    method: 'GET',
    path: '/v1/audit/public_key',
    permission: needs('events', 'read'),
    schema: {
      operationId: 'retrieveAuditPublicKey',
      'x-plinth-sdk': { resource: 'audit', method: 'retrievePublicKey' },
      tags: [TAG],
      summary: 'The key that signs checkpoints',
      description: 'Check checkpoints against it; pin it once, outside Plinth.',
      response: { 200: Ref<AuditPublicKey>('AuditPublicKey') },
    },
  }),
};

export interface AuditDeps {
  db: Db;
  secrets: SecretBox;
  /** Resolves once every event committed before the call is numbered (PostgreSQL's sequencer). */
  caughtUp: () => Promise<void>;
  /** Makes the key if the start-up has not yet (a process that never listened: a test's `inject`). */
  ensureKey: () => Promise<void>;
}

export async function chainPage(db: Db, owner: Owner, query: AuditChainQuery): Promise<List<AuditChainLink>> {
  const limit = query.limit ?? 100;
  const rows = await db
    .selectFrom('event_chain')
    .select(['sequence', 'event_id', 'hash'])
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .where('sequence', '>', query.after ?? 0)
    .orderBy('sequence')
    .limit(limit + 1)
    .execute();
  const data = rows.slice(0, limit).map((r) => ({ sequence: Number(r.sequence), event_id: r.event_id, hash: r.hash }));
  return { object: 'list', data, has_more: rows.length > limit };
}

/** The chain's head, signed now by the active key (`keyOf` makes a key row ready to sign: `signingKeys`). */
export async function checkpointOf(
  deps: { db: Db; keyOf: (row: AuditKeysTable) => SigningKey },
  owner: Owner,
): Promise<AuditCheckpoint> {
  const head = await deps.db
    .selectFrom('event_chain')
    .select(['sequence', 'hash'])
    .where('org_id', '=', owner.orgId)
    .where('mode', '=', owner.mode)
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
  const checkpoint = {
    origin: originOf(owner),
    size: Number(head?.sequence ?? 0),
    hash: head?.hash ?? genesisHash(owner.orgId, owner.mode),
  };
  const key = deps.keyOf(await activeKey(deps.db));
  return { object: 'audit.checkpoint', ...checkpoint, note: signCheckpoint(checkpoint, key) };
}

export async function publicKeyOfInstance(db: Db): Promise<AuditPublicKey> {
  const [active, ...retired] = await allKeys(db);
  if (active === undefined) throw new Error('no checkpoint key: the server makes one at start-up');
  return { ...publicKeyView(active), retired_keys: retired.map(publicKeyView) };
}

export function auditRoutes(app: FastifyInstance, deps: AuditDeps): void {
  const keyOf = signingKeys(deps.secrets);
  app.addSchema(AuditChainLinkSchema);
  app.addSchema(AuditChainPage);
  app.addSchema(AuditCheckpointSchema);
  app.addSchema(AuditPublicKeySchema);
  declareOperations(app, {}, [
    implement(auditOps.listAuditChain, {
      read: async (owner, input) => {
        await deps.caughtUp();
        return chainPage(deps.db, owner, input.query);
      },
    }),
    implement(auditOps.retrieveAuditCheckpoint, {
      read: async (owner) => {
        await Promise.all([deps.caughtUp(), deps.ensureKey()]);
        return checkpointOf({ db: deps.db, keyOf }, owner);
      },
    }),
    implement(auditOps.retrieveAuditPublicKey, {
      read: async () => {
        await deps.ensureKey();
        return publicKeyOfInstance(deps.db);
      },
    }),
  ]);
}
