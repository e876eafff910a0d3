/* tslint:disable */
/* eslint-disable */
export * from './runtime.js';
export * from './apis/index.js';
export * from './models/index.js';
