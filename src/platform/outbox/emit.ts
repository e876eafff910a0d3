import { preparedInsertRows } from '../../db/prepared-insert.ts';
import { newId } from '../kit/ids.ts';
import { apiTime, storedTime } from '../kit/time.ts';
import type { EventRequest, WriteContext } from '../operations/context.ts';
import { type AfterNumbered, chainRow, type Draft, type EventOwner, numberEvents } from './numbering.ts';
import { numberPending, recordUnnumbered } from './sequencer.ts';
import type { EventsTable } from './tables.ts';
import type { Change } from './types.ts';

export type { AfterNumbered, Change, EventOwner, EventRequest };

const insertNumbered = preparedInsertRows('events', {
  id: true,
  org_id: true,
  mode: true,
  type: true,
  sequence: true,
  body: true,
  created_at: true,
  request_id: true,
  position: true,
  position_index: true,
});

const insertChain = preparedInsertRows('event_chain', {
  org_id: true,
  mode: true,
  sequence: true,
  event_id: true,
  hash: true,
});

export interface EmitOptions {
  /**
   * Number the events before the write commits, for an answer that shows them (`webhook_endpoint.test`): on
   * PostgreSQL the write runs a sequencer pass of its own, waiting for its turn. Only for rare writes.
   */
  numberNow?: boolean;
}

/** Records the events of a write: built once at start-up (`eventRecorder`) and handed to every service that writes. */
export interface EventRecorder {
  /**
   * Records the events of one write in its transaction (the transactional outbox), in the order given, so that
   * there is no change without its events and no event without its change; they are the write's owner's, record its
   * request, and carry its time:
   *
   *   await deps.events.emit(ctx, [{ type: 'fintech.account.frozen', object: accountFromRow(row) }]);
   *
   * On SQLite they are numbered here (the single writer commits in order). On PostgreSQL they are recorded without a
   * number, and the ordering key they will be numbered by is drawn as the write's last statement before COMMIT
   * (sequencer.ts explains why that order is right); the write's answer does not wait for the number. Returns the
   * rows as recorded (`sequence` null when not yet numbered), numbered in any case with `numberNow`.
   */
  emit(ctx: WriteContext, changes: Change[], options?: EmitOptions): Promise<EventsTable[]>;
}

export interface RecorderDeps {
  afterNumbered: AfterNumbered;
  /** Called once a write that recorded unnumbered events has committed: the sequencer's wake-up. */
  onRecorded?: () => void;
}

export function eventRecorder(deps: RecorderDeps): EventRecorder {
  return {
    async emit({ trx, owner, request, now: at }, changes, options = {}) {
      const created = storedTime(at);
      const livemode = owner.mode === 'live';
      const drafts = changes.map(({ type, object }): Draft => {
        const id = newId('evt', at.getTime());
        return {
          row: { id, org_id: owner.orgId, mode: owner.mode, type, created_at: created },
          event: {
            id,
            object: 'event',
            type,
            sequence: null,
            chain: null,
            data: { object },
            request,
            livemode,
            created_at: apiTime(created),
          },
        };
      });
      if (trx.singleWriter) {
        // Writes commit in the order they run: the number drawn here is the commit order.
        const numbered = await numberEvents(trx, drafts);
        // The rows as inserted, field by field (a rest pattern and a spread copied each event twice).
        const requestId = request?.id ?? null;
        insertNumbered(
          trx,
          numbered.map((event) => ({
            id: event.id,
            org_id: event.org_id,
            mode: event.mode,
            type: event.type,
            sequence: event.sequence,
            body: event.body,
            created_at: event.created_at,
            request_id: requestId,
            position: null,
            position_index: null,
          })),
        );
        insertChain(trx, numbered.map(chainRow));
        await deps.afterNumbered(trx, numbered);
        return numbered;
      }
      if (options.numberNow) {
        recordUnnumbered(trx, owner, drafts);
        const numbered = await numberPending(trx, deps.afterNumbered, { wait: true });
        const own = new Set(drafts.map((d) => d.row.id));
        return numbered!.filter((event) => own.has(event.id));
      }
      trx.beforeCommit(() => recordUnnumbered(trx, owner, drafts));
      if (deps.onRecorded) trx.afterCommit(deps.onRecorded);
      return drafts.map(({ row, event }) => ({ ...row, sequence: null, body: JSON.stringify(event) }));
    },
  };
}
