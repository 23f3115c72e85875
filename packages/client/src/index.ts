// @mcs/partner-client: a typed client for the Multichannel Commerce Service API (see README.md).
export { createClient, buildUrl, parseRetryAfter, type Client, type ClientOptions } from './client.js';
export { ApiError, classifyErrorBody, isV1ErrorBody, isV2ErrorBody, type ApiErrorBody, type V1ErrorBody, type V2ErrorBody, type V2ErrorDetail } from './errors.js';
export { itemsV1, itemsV2, pagesV1, pagesV2, type V1PagedPath, type V2PagedPath } from './pagers.js';
export {
  callbackRejection,
  signCallback,
  signingString,
  verifyCallback,
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type CallbackHeaders,
  type VerifyCallbackInput,
  type VerifyFailure,
  type VerifyResult,
} from './verify-callback.js';
export type { HttpMethod, JsonBodyOf, Operation, PathParamsOf, PathsWith, QueryOf, RequestOptions, ResponseOf, paths } from './types.js';
// The generated document types: an operation by its operationId, a named schema by its name.
export type { components, operations } from './schema.js';
