import type { FastifyInstance } from 'fastify';
import { needs } from '../../platform/auth/permissions.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareWrite, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { type Account, AccountIdParams } from './accounts.schema.ts';
import { CloseBody, FreezeBody, UnfreezeBody } from './lifecycle.schema.ts';
import { closeAccount, freezeAccount, unfreezeAccount } from './lifecycle.service.ts';
import type { AccountsDeps } from './shared.ts';

const TAG = 'Fintech accounts';

const response = { 200: Ref<Account>('Account') };

/** Lifecycle operations, declared at module scope: what the dashboard and the CLI name through `ops` (src/ops.ts). */
export const lifecycleOps = {
  freezeAccount: declareWrite({
    method: 'POST',
    path: '/v1/fintech/accounts/:id/freeze',
    permission: needs('accounts', 'write'),
    schema: {
      operationId: 'freezeAccount',
      'x-plinth-sdk': { resource: 'accounts', method: 'freeze' },
      tags: [TAG],
      summary: 'Freeze an account',
      description: 'A frozen account takes no debit and no credit until it is unfrozen. It stays readable.',
      'x-problems': ['account_closed'],
      params: AccountIdParams,
      body: FreezeBody,
      response,
    },
  }),
  unfreezeAccount: declareWrite({
    method: 'POST',
    path: '/v1/fintech/accounts/:id/unfreeze',
    permission: needs('accounts', 'write'),
    schema: {
      operationId: 'unfreezeAccount',
      'x-plinth-sdk': { resource: 'accounts', method: 'unfreeze' },
      tags: [TAG],
      summary: 'Unfreeze an account',
      description: 'Makes a frozen account `active` again. An account the operator froze gives 403.',
      'x-problems': ['permission_denied', 'account_closed'],
      'x-body-optional': true,
      params: AccountIdParams,
      body: UnfreezeBody,
      response,
    },
  }),
  closeAccount: declareWrite({
    method: 'POST',
    path: '/v1/fintech/accounts/:id/close',
    permission: needs('accounts', 'write'),
    schema: {
      operationId: 'closeAccount',
      'x-plinth-sdk': { resource: 'accounts', method: 'close' },
      tags: [TAG],
      summary: 'Close an account',
      description: 'Closing is final and needs both balances at 0. A closed account stays readable.',
      'x-problems': ['account_balance_nonzero'],
      'x-body-optional': true,
      params: AccountIdParams,
      body: CloseBody,
      response,
    },
  }),
};

/**
 * Freeze, unfreeze, close (docs/api.md#account-lifecycle). Asking for the state an account is already in answers 200,
 * unchanged.
 */
export function lifecycleRoutes(app: FastifyInstance, deps: AccountsDeps & { withIdempotency: WithIdempotency }): void {
  declareOperations(app, deps, [
    implement(lifecycleOps.freezeAccount, {
      write: (ctx, input) => freezeAccount(deps, ctx, input.params.id, input.body),
    }),

    implement(lifecycleOps.unfreezeAccount, {
      write: (ctx, input) => unfreezeAccount(deps, ctx, input.params.id),
    }),

    implement(lifecycleOps.closeAccount, {
      write: (ctx, input) => closeAccount(deps, ctx, input.params.id, input.body),
    }),
  ]);
}
