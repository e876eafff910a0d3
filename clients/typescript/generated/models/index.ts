/* tslint:disable */
/* eslint-disable */
export * from './Account.js';
export * from './AccountAvailableBalance.js';
export * from './AccountKyb.js';
export * from './AccountList.js';
export * from './ApiKey.js';
export * from './ApiKeyList.js';
export * from './CreateAccountRequest.js';
export * from './CreateAccountRequestKyb.js';
export * from './CreateApiKeyRequest.js';
export * from './GetHealthResponse.js';
export * from './GetReadinessResponse.js';
export * from './NewApiKey.js';
export * from './Problem.js';
export * from './ProblemErrorsItem.js';
export * from './SandboxSignup.js';
export * from './SandboxSignupRequest.js';
