/**
 * @plinth/client: the Plinth API for Node.js ≥ 18 and browsers, as an ES module and as CommonJS. See README.md.
 */

// The models, exactly as generated from the API description; types only (the generated runtime is an
// implementation detail), so a model added to the document is exported here without editing this file. The
// three answers that carry a secret are re-exported below with it as a plain string; a local export wins over
// `export *`, so `NewApiKey`, `SandboxSignup` and `WebhookEndpointWithSecret` are the layer's.
export type * from '../generated/models/index.js';
export type { WithRequestId, WithSecret } from './call.js';
export { ReplayedSecretError } from './call.js';
export type { PlinthClientOptions, RawRequest, SandboxSignup } from './client.js';
export { PlinthClient } from './client.js';
export { PlinthError } from './errors.js';
export type { ListParams, Page, PageParams } from './pagination.js';
export type { AccountFilters, BalancesParams, StatementParams, UpdateAccountParams } from './resources/accounts.js';
export { AccountsResource } from './resources/accounts.js';
export type { ApiKeyPermissions, CreateApiKeyParams, NewApiKey, Permissions } from './resources/api-keys.js';
export { ApiKeysResource } from './resources/api-keys.js';
export type { EventFilters } from './resources/events.js';
export { EventsResource } from './resources/events.js';
export type { ApiTime, CreatedBound, CreatedFilter, Metadata, MetadataUpdate } from './resources/filters.js';
export type { TransactionFilters } from './resources/money.js';
export { SandboxResource, TransactionsResource } from './resources/money.js';
export type { RequestOptions } from './resources/options.js';
export type { RequestFilters } from './resources/requests.js';
export { RequestsResource } from './resources/requests.js';
export type { TransferFilters, UpdateTransferParams } from './resources/transfers.js';
export { TransfersResource } from './resources/transfers.js';
export type {
  CreateWebhookEndpointParams,
  DeliveryFilters,
  UpdateWebhookEndpointParams,
  WebhookEndpointWithSecret,
} from './resources/webhooks.js';
export { WebhookDeliveriesResource, WebhookEndpointsResource } from './resources/webhooks.js';
export type { StreamParams } from './stream.js';
export type { RetryInfo } from './transport.js';
export type { VerifyOptions, WebhookHeaders } from './webhooks.js';
export { Webhook, WebhookVerificationError } from './webhooks.js';
