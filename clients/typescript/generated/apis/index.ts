/* tslint:disable */
/* eslint-disable */
export * from './APIKeysApi.js';
export * from './DocumentationApi.js';
export * from './FintechAccountsApi.js';
export * from './FintechTransactionsApi.js';
export * from './FintechTransfersApi.js';
export * from './OperationsApi.js';
