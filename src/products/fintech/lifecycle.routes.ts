import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requestOf } from '../../platform/events/emit.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { principalOf } from '../../platform/keys/auth.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { type Account, AccountIdParams } from './accounts.schema.ts';
import { CloseBody, FreezeBody, UnfreezeBody } from './lifecycle.schema.ts';
import { closeAccount, freezeAccount, unfreezeAccount } from './lifecycle.service.ts';
import type { AccountsDeps } from './shared.ts';

const TAG = 'Fintech accounts';

/** Freeze, unfreeze, close (CONTRACT §9). Asking for the state an account is already in answers 200, unchanged. */
export function lifecycleRoutes(app: FastifyInstance, deps: AccountsDeps & { withIdempotency: WithIdempotency }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const response = { 200: Ref<Account>('Account') };

  r.post(
    '/v1/fintech/accounts/:id/freeze',
    {
      schema: {
        operationId: 'freezeAccount',
        tags: [TAG],
        summary: 'Freeze an account',
        description: 'A frozen account takes no debit and no credit until it is unfrozen. It stays readable.',
        'x-problems': ['account_closed'],
        params: AccountIdParams,
        body: FreezeBody,
        response,
      },
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        freezeAccount(deps, trx, principalOf(request), request.params.id, request.body, requestOf(request)),
      ),
  );

  r.post(
    '/v1/fintech/accounts/:id/unfreeze',
    {
      schema: {
        operationId: 'unfreezeAccount',
        tags: [TAG],
        summary: 'Unfreeze an account',
        description: 'Makes a frozen account `active` again. An account the operator froze gives 403.',
        'x-problems': ['permission_denied', 'account_closed'],
        'x-body-optional': true,
        params: AccountIdParams,
        body: UnfreezeBody,
        response,
      },
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        unfreezeAccount(deps, trx, principalOf(request), request.params.id, requestOf(request)),
      ),
  );

  r.post(
    '/v1/fintech/accounts/:id/close',
    {
      schema: {
        operationId: 'closeAccount',
        tags: [TAG],
        summary: 'Close an account',
        description: 'Closing is final and needs both balances at 0. A closed account stays readable.',
        'x-problems': ['account_balance_nonzero'],
        'x-body-optional': true,
        params: AccountIdParams,
        body: CloseBody,
        response,
      },
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        closeAccount(deps, trx, principalOf(request), request.params.id, request.body, requestOf(request)),
      ),
  );
}
