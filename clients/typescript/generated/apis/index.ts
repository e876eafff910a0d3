/* tslint:disable */
/* eslint-disable */
export * from './APIKeysApi.js';
export * from './DocumentationApi.js';
export * from './FintechAccountsApi.js';
export * from './OperationsApi.js';
