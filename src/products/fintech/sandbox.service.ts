import type { Principal } from '../../platform/auth/principal.ts';
import { requireSandbox } from '../../platform/auth/sandbox.ts';
import { newId } from '../../platform/kit/ids.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import { cleanDescription } from './description.ts';
import { move } from './ledger/move.ts';
import type { MoneyDeps } from './shared.ts';
import type { SimulationBody, Transaction } from './transactions.schema.ts';

/**
 * A sandbox deposit (+1) or withdrawal (−1): one movement of money (ledger/move.ts) between the account and its org's
 * system funding account for that mode and currency, which may go negative. Sandbox keys only. The account's currency
 * decides the journal's and which system account is the other side; a refusal is thrown before anything is written.
 */
async function simulate(
  deps: MoneyDeps,
  ctx: WriteContext<Principal>,
  accountId: string,
  body: SimulationBody,
  sign: 1 | -1,
): Promise<Transaction> {
  const { trx, owner, now } = ctx;
  requireSandbox(owner);
  const description = cleanDescription(body.description);
  const account = { account: accountId, param: 'id' };
  const funding = { system: 'funding' as const };
  const moved = await move(trx, {
    owner,
    debit: sign === 1 ? funding : account,
    credit: sign === 1 ? account : funding,
    amount: body.amount,
    effect: { kind: 'post' },
    now,
    journal: {
      id: (at) => newId(sign === 1 ? 'sdep' : 'swd', at.getTime()),
      source: sign === 1 ? 'sandbox_deposit' : 'sandbox_withdrawal',
      description,
    },
  });
  await deps.events.emit({ ...ctx, now: moved.at }, moved.transactions);
  return moved.transactions[0]!.object;
}

export const simulateDeposit = (deps: MoneyDeps, ctx: WriteContext<Principal>, id: string, body: SimulationBody) =>
  simulate(deps, ctx, id, body, 1);

export const simulateWithdrawal = (deps: MoneyDeps, ctx: WriteContext<Principal>, id: string, body: SimulationBody) =>
  simulate(deps, ctx, id, body, -1);
