import { defineModule } from '../../platform/module.ts';
import { auditRoutes } from './audit.routes.ts';
import { AUDIT_KEY_COLUMN, ensureKey } from './keys.ts';
import { AUDIT_MIGRATIONS } from './migrations/index.ts';

export { auditOps, checkpointOf, publicKeyOfInstance } from './audit.routes.ts';
export { allKeys, rotateKey } from './keys.ts';
export { type Checkpoint, openCheckpoint } from './note.ts';
export { originOf, type Problem, type Verified, verifyChain } from './verify.ts';

/**
 * A history anyone can verify (docs/api.md#verifying-the-history): the events' hash chain (written by the outbox's
 * numbering, platform/outbox/chain.ts) paged, signed checkpoints of it, and the key that signs them, made at the
 * first start.
 */
export const audit = defineModule({
  name: 'audit',
  tags: [
    {
      name: 'Audit',
      description:
        "Every event's body names the hash of the one before: the chain, and signed checkpoints of it, let anyone " +
        'check that no event (and no ledger transaction) was changed afterwards.',
    },
  ],
  migrations: AUDIT_MIGRATIONS,
  sealedColumns: [AUDIT_KEY_COLUMN],
  install(app, { database, secrets, clock, sequencer }) {
    let made: Promise<void> | null = null;
    const ensure = () => {
      made ??= ensureKey(database, secrets, clock()).catch((error) => {
        made = null;
        throw error;
      });
      return made;
    };
    // At the first start (when the server listens: the database is migrated by then).
    app.addHook('onListen', ensure);
    auditRoutes(app, { db: database.db, secrets, caughtUp: sequencer.caughtUp, ensureKey: ensure });
  },
});
