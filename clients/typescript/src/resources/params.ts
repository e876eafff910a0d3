/**
 * The request types the generated model does not state well enough, by hand; the generated methods
 * (src/operations/, scripts/clients/layers/typescript.ts) take `<Name>Params` instead of the generated
 * `<Name>Request` wherever this file declares one. And the secret-bearing answers, with their secret a plain string.
 */
import type {
  ApiKey,
  CreateApiKeyRequest,
  CreateApiKeyRequestPermissions,
  CreateWebhookEndpointRequest,
  NewApiKey as GeneratedNewApiKey,
  WebhookEndpointWithSecret as GeneratedWithSecret,
  UpdateWebhookEndpointRequest,
} from '../../generated/index.js';
import type { WithSecret } from '../call.js';
import type {
  ListAccountsFilters,
  ListAccountTransactionsFilters,
  ListEventsFilters,
  ListRequestsFilters,
  ListTransfersFilters,
  ListWebhookEndpointDeliveriesFilters,
  RetrieveAccountBalancesParams,
  RetrieveAccountStatementParams,
} from '../operations/index.js';
import type { MetadataUpdate } from './filters.js';

/**
 * A new key with its secret `key` (`sk_…`, or `rk_…` when restricted), a plain string: store it now, it is not shown
 * again. On an idempotent replay (`replayed`) the server has no copy to send, and reading `key` throws
 * ReplayedSecretError.
 */
export type NewApiKey = WithSecret<GeneratedNewApiKey, 'key'>;

/** A key object's permissions: every group's level; `null` on a full key (docs/api.md#keys-and-the-sandbox). */
export type ApiKeyPermissions = NonNullable<ApiKey['permissions']>;

/**
 * What a restricted key may do, group by group: `none`, `read` or `write` (which includes read); a group left out
 * is `none`. Only the known groups: the generated type also takes any other name, so a misspelt group would compile.
 */
export type Permissions = { [G in keyof ApiKeyPermissions]?: CreateApiKeyRequestPermissions[G] };

/** `mode` defaults to the calling key's; `name` is a label for people; `permissions` makes a restricted key. */
export type CreateApiKeyParams = Omit<CreateApiKeyRequest, 'permissions'> & { permissions?: Permissions };

/** `accounts.update`'s parameters: the metadata, the nickname or both; what is not given stays. */
export interface UpdateAccountParams {
  metadata?: MetadataUpdate;
  /** A label for people (1–100 characters), or `''` to remove it. */
  nickname?: string;
}

/** `transfers.update`'s parameters: only metadata changes. */
export interface UpdateTransferParams {
  metadata: MetadataUpdate;
}

/**
 * A created or rotated endpoint with its signing `secret` (`whsec_…`), a plain string: keep it, it is not shown
 * again. On an idempotent replay (`replayed`) the server has no copy to send, and reading `secret` throws
 * ReplayedSecretError.
 */
export type WebhookEndpointWithSecret = WithSecret<GeneratedWithSecret, 'secret'>;

/**
 * Create's parameters, with `enabled_events` as any iterable of event types (`['*']`: every type); `metadata` is
 * optional. (The generated request holds them as a Set; its serialiser takes any iterable.)
 */
export type CreateWebhookEndpointParams = Omit<CreateWebhookEndpointRequest, 'enabled_events'> & {
  enabled_events: Iterable<string>;
};

/** Update's parameters: only the fields given change; `metadata` as MetadataUpdate says. */
export type UpdateWebhookEndpointParams = Omit<UpdateWebhookEndpointRequest, 'enabled_events' | 'metadata'> & {
  enabled_events?: Iterable<string>;
  metadata?: MetadataUpdate;
};

// The names these types had before the layer was generated (src/operations names them after the operation).
export type AccountFilters = ListAccountsFilters;
export type BalancesParams = RetrieveAccountBalancesParams;
export type StatementParams = RetrieveAccountStatementParams;
export type EventFilters = ListEventsFilters;
export type TransactionFilters = ListAccountTransactionsFilters;
export type RequestFilters = ListRequestsFilters;
export type TransferFilters = ListTransfersFilters;
export type DeliveryFilters = ListWebhookEndpointDeliveriesFilters;
