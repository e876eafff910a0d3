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
// The resources and their parameters' types, generated from the API description (src/operations).
export * from './operations/index.js';
export type { ListParams, Page, PageParams } from './pagination.js';
export type { ApiTime, CreatedBound, CreatedFilter, Metadata, MetadataUpdate } from './resources/filters.js';
export type { RequestOptions } from './resources/options.js';
export type {
  AccountFilters,
  ApiKeyPermissions,
  BalancesParams,
  CreateApiKeyParams,
  CreateWebhookEndpointParams,
  DeliveryFilters,
  EventFilters,
  NewApiKey,
  Permissions,
  RequestFilters,
  StatementParams,
  TransactionFilters,
  TransferFilters,
  UpdateAccountParams,
  UpdateTransferParams,
  UpdateWebhookEndpointParams,
  WebhookEndpointWithSecret,
} from './resources/params.js';
export type { StreamParams } from './stream.js';
export type { RetryInfo } from './transport.js';
export type { VerifyOptions, WebhookHeaders } from './webhooks.js';
export { Webhook, WebhookVerificationError } from './webhooks.js';
