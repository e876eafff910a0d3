/* tslint:disable */
/* eslint-disable */
export * from './APIKeysApi.js';
export * from './AuditApi.js';
export * from './DocumentationApi.js';
export * from './EventsApi.js';
export * from './FintechAccountNumbersApi.js';
export * from './FintechAccountsApi.js';
export * from './FintechPaymentSimulationsApi.js';
export * from './FintechPaymentsApi.js';
export * from './FintechTransactionsApi.js';
export * from './FintechTransfersApi.js';
export * from './OperationsApi.js';
export * from './RequestsApi.js';
export * from './SandboxClockApi.js';
export * from './WebhooksApi.js';
