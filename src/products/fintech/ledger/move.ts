import type { Trx } from '../../../db/database.ts';
import { ApiError } from '../../../platform/http/errors.ts';
import { isIdOf } from '../../../platform/kit/ids.ts';
import { storedTime } from '../../../platform/kit/time.ts';
import type { Owner } from '../../../platform/operations/context.ts';
import { ACCOUNT, accountNotFound } from '../shared.ts';
import type { SourceType } from '../tables.ts';
import type { Transaction } from '../transactions.schema.ts';
import { transactionOf } from '../transactions.view.ts';
import { type Minor, minus, negated, toAmount, withinBounds } from './amount.ts';
import { changeHold, type Posted, postJournal } from './post.ts';
import { type CustomerRef, lockSides, lockSystemSide, type Side, type SideRef, type SystemRef } from './sides.ts';
import { ensureSystemAccount, systemAccountId } from './system-account.ts';
import { movementTime } from './time.ts';

/**
 * The one command that moves money (docs/architecture.md, "Moving money"). Every transfer, pending post, reversal,
 * sandbox simulation and payment outcome is a call of `move`: it locks the sides in the one order every writer takes them (customer
 * accounts by ascending id, then the system account), makes every check a movement of money needs, in the order their
 * errors are reported (existence, open, currency, then funds and the bound of every balance), takes the time, and
 * writes the journal, both balances and both entries. Nothing a caller passes can skip a check: what differs between
 * movements is only their `effect`, and each effect names what it may rely on instead of a check (a hold placed
 * earlier covers the funds of `post_held`). A refusal is thrown before anything is written.
 */

/** A hold placed by a pending transfer: until when it holds, and the refusal once it no longer does. */
export interface Hold {
  held: Minor;
  /** Its `expires_at`: a movement that ends it must be earlier (see `checkBeforeExpiry`); null: it never expires. */
  expiresAt: string | null;
  expired: () => ApiError;
}

/**
 * What the movement does to the sides once checked:
 * - `post`: the amount moves now; the debit side must have it available.
 * - `hold`: nothing moves; the amount is held on the debit side (a pending transfer), which must have it available.
 * - `post_held`: a pending transfer's money moves, `amount` of the hold it placed (all or part); the whole hold is
 *   released, so the funds were checked when it was placed, and the movement's time must come before its expiry.
 */
export type Effect = { kind: 'post' } | { kind: 'hold' } | ({ kind: 'post_held' } & Hold);

export interface Movement {
  owner: Owner;
  debit: SideRef;
  credit: SideRef;
  /** Positive minor units. */
  amount: Minor;
  /** The movement's currency; omitted, the customer side's own (a simulation follows its account). */
  currency?: string;
  effect: Effect;
  /** The write's time, read once at its start (WriteContext.now). */
  now: Date;
  /** What the journal records; its id is made from the movement's time (the id of the row it belongs to). */
  journal: { id: (at: Date) => string; source: SourceType; description: string | null };
}

export interface Moved {
  /** The journal's id (for a hold, the id the row it belongs to takes). */
  id: string;
  /** The movement's time: the write's, or a side's last entry when later (time.ts). */
  at: Date;
  /** `at` as stored. */
  atText: string;
  /** The ledger accounts debited and credited (a system side's id, made on first use: system-account.ts). */
  debitId: string;
  creditId: string;
  /** The customer sides' new transactions, as their events report them (none for a hold). */
  transactions: { type: 'fintech.transaction.created'; object: Transaction }[];
}

const isCustomer = (ref: SideRef): ref is CustomerRef => 'account' in ref;

/** A closed or frozen side moves no money; `param` names the side. */
function checkOpen(row: Side, param: string): void {
  if (row.status === 'closed')
    throw new ApiError('account_closed', `${param} ${row.id} is closed; it can no longer move money.`, { param });
  if (row.status === 'frozen')
    throw new ApiError('account_frozen', `${param} ${row.id} is frozen; it takes no debit and no credit.`, { param });
}

function checkCurrency(row: Side, param: string, currency: string): void {
  if (row.currency !== currency)
    throw new ApiError(
      'currency_mismatch',
      `${param} ${row.id} holds ${row.currency}; this movement is in ${currency}.`,
      { param },
    );
}

/**
 * What a customer account can spend: its balance less what its pending transfers hold
 * (docs/api.md#holding-money-pending-transfers-and-the-two-balances).
 */
export const availableOf = (row: Pick<Side, 'balance' | 'held'>): Minor =>
  minus(toAmount(row.balance), toAmount(row.held));

function checkFunds(row: Side, param: string, amount: Minor): void {
  const available = availableOf(row);
  if (available < amount)
    throw new ApiError(
      'insufficient_funds',
      `${param} ${row.id} has ${available} ${row.currency} (minor units) available; ${amount} were asked for.`,
      { param, ownNumbers: true },
    );
}

/** Every balance stays within ±(2^53 − 1), so that it is exact as a JSON number (see the README's Decisions). */
function checkBound(row: Side, delta: Minor, currency: string): void {
  if (!withinBounds(toAmount(row.balance), delta))
    throw new ApiError(
      'parameter_invalid',
      `amount would take a balance past 9007199254740991 ${currency} (minor units), the most an account holds.`,
      { param: 'amount' },
    );
}

/** The customer sides, locked (ascending id) and read; a side the owner cannot see is a 404 naming its field. */
async function lockCustomers(trx: Trx, owner: Owner, refs: CustomerRef[]): Promise<Map<string, Side>> {
  const ids = refs.map((ref) => ref.account).filter((id) => isIdOf(ACCOUNT.prefix, id));
  const sides = ids.length > 0 ? await lockSides(trx, owner, [...new Set(ids)]) : new Map<string, Side>();
  for (const ref of refs) if (!sides.has(ref.account)) throw accountNotFound(ref.account, ref.param);
  return sides;
}

/**
 * The org's system account for the currency, locked and read; made on first use. Made before the check of its bound,
 * which it cannot fail then (a new account holds 0), so a refusal still comes before any write that matters.
 */
async function lockSystem(trx: Trx, owner: Owner, ref: SystemRef, currency: string, at: string): Promise<Side> {
  const id = systemAccountId(owner.orgId, owner.mode, currency, ref.system);
  const existing = await lockSystemSide(trx, id);
  if (existing !== undefined) return existing;
  ensureSystemAccount(trx, owner.orgId, owner.mode, currency, at, ref.system);
  return (await lockSystemSide(trx, id))!;
}

export async function move(trx: Trx, m: Movement): Promise<Moved> {
  if (!(Number.isSafeInteger(m.amount) && m.amount > 0)) throw new Error(`ledger.move: amount ${m.amount} is not > 0`);
  const customers = [m.debit, m.credit].filter(isCustomer);
  if (customers.length === 0) throw new Error('ledger.move: a movement has at least one customer side');
  if (customers.length === 2 && customers[0]!.account === customers[1]!.account)
    throw new ApiError('parameter_invalid', `${customers[1]!.param} must differ from ${customers[0]!.param}.`, {
      param: customers[1]!.param,
    });
  const sides = await lockCustomers(trx, m.owner, customers);
  const customer = (ref: CustomerRef) => sides.get(ref.account)!;
  for (const ref of customers) checkOpen(customer(ref), ref.param);
  const currency = m.currency ?? customer(customers[0]!).currency;
  for (const ref of customers) checkCurrency(customer(ref), ref.param, currency);

  // A customer side as read under its lock; undefined for the system side.
  const customerSide = (ref: SideRef) => (isCustomer(ref) ? customer(ref) : undefined);
  const debit = customerSide(m.debit);
  const credit = customerSide(m.credit);
  if (m.effect.kind !== 'post' && debit === undefined)
    throw new Error(`ledger.move: a ${m.effect.kind} is a customer's hold; its debit side must be a customer account`);
  if (debit !== undefined) {
    if (m.effect.kind === 'post_held') {
      if (m.amount > m.effect.held || toAmount(debit.held) < m.effect.held)
        throw new Error(`ledger.move: ${debit.id} posts ${m.amount} of a hold of ${m.effect.held} it does not have`);
    } else checkFunds(debit, (m.debit as CustomerRef).param, m.amount);
  }
  if (credit !== undefined) checkBound(credit, m.amount, currency);
  // The system side last: every movement of the org and currency updates it, so its lock is held briefly.
  const systemRef = isCustomer(m.debit) ? (isCustomer(m.credit) ? undefined : m.credit) : m.debit;
  if (m.effect.kind === 'hold') {
    // A hold moves nothing: only the debit side changes. A system side is named, not read: made if absent (issued,
    // not awaited), so that a transfer row can name it; its lock waits for the movement that posts the hold.
    const at = movementTime(m.now, [...sides.values()]);
    const atText = storedTime(at);
    const creditId =
      systemRef === undefined
        ? credit!.id
        : ensureSystemAccount(trx, m.owner.orgId, m.owner.mode, currency, atText, systemRef.system);
    changeHold(trx, { id: debit!.id, amount: m.amount });
    return { id: m.journal.id(at), at, atText, debitId: debit!.id, creditId, transactions: [] };
  }
  const system =
    systemRef === undefined ? undefined : await lockSystem(trx, m.owner, systemRef, currency, storedTime(m.now));
  if (system !== undefined) checkBound(system, isCustomer(m.credit) ? negated(m.amount) : m.amount, currency);

  const locked = [...sides.values(), ...(system === undefined ? [] : [system])];
  const at = movementTime(m.now, locked);
  if (m.effect.kind === 'post_held') checkBeforeExpiry(m.effect, at);
  const atText = storedTime(at);
  const id = m.journal.id(at);
  const [from, to] = [debit ?? system!, credit ?? system!];
  const journal = {
    id,
    org_id: m.owner.orgId,
    mode: m.owner.mode,
    currency,
    description: m.journal.description,
    source_type: m.journal.source,
    created_at: atText,
  };
  const release = m.effect.kind === 'post_held' ? m.effect.held : 0;
  const posted: Posted[] = postJournal(trx, journal, [
    { side: from, amount: negated(m.amount), release },
    { side: to, amount: m.amount },
  ]);
  const transactions = posted
    .filter((entry) => sides.has(entry.accountId))
    .map((entry) => ({ type: 'fintech.transaction.created' as const, object: transactionOf(journal, entry) }));
  return { id, at, atText, debitId: from.id, creditId: to.id, transactions };
}

/**
 * A hold ends at a movement's time, which must come before its expiry: one ending later would hold the money again
 * over moments already answered about as released (docs/api.md#balances-over-time-and-statements).
 */
function checkBeforeExpiry(hold: Hold, at: Date): void {
  if (hold.expiresAt !== null && Date.parse(hold.expiresAt) <= at.getTime()) throw hold.expired();
}

/**
 * Ends a hold before its expiry (a void; the sandbox's "expire it now"): the holder's ledger row locked and read, its
 * time taken as a movement's (its last entry, its seal: time.ts) and refused once that reaches the expiry, then the
 * hold released. No money moves. Returns the moment the hold ended.
 */
export async function endHold(trx: Trx, owner: Owner, account: string, hold: Hold, now: Date): Promise<Date> {
  const side = (await lockSides(trx, owner, [account])).get(account);
  if (side === undefined) throw new Error(`ledger.endHold: no ledger account ${account}`);
  const at = movementTime(now, [side]);
  checkBeforeExpiry(hold, at);
  changeHold(trx, { id: account, amount: negated(hold.held) });
  return at;
}

/**
 * Releases a hold at its expiry (the sweep), without a lock: every answer about a moment from its expiry on already
 * counts it released, whenever the sweep comes.
 */
export function releaseExpiredHold(trx: Trx, account: string, held: Minor): void {
  changeHold(trx, { id: account, amount: negated(held) });
}
