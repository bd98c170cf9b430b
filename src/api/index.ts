// The public surface of the API v2 client. Everything above src/api imports from here only.
export { HubClient, MAX_GET_URL_LENGTH, DEFAULT_USER_AGENT, waitForOperation, uploadImport } from './hubClient';
export type { HubClientOptions, RunSqlOptions } from './hubClient';
export type { DbRef, RequestOptions } from './dbRef';
export { ApiError, ClientErrorCodes, OperationFailedError, RefusedUrlError, UploadError, isAbortError } from './errors';
export type { ApiErrorInit, UploadErrorReason } from './errors';
export { paginate, collectAll } from './pagination';
export type { Page, PageOptions } from './pagination';
export { pollDelay } from './operations';
export type { WaitForOperationOptions } from './operations';
export { filePartsMd5, md5Base64, DEFAULT_PART_SIZE, DEFAULT_UPLOAD_CONCURRENCY } from './uploads';
export type { UploadImportOptions, UploadImportResult, UploadProgress } from './uploads';
export type { TokenSource } from './transport';
export type { Timing } from './timing';
export { ProxyDispatcher, proxyFor, isLoopback, matchesNoProxy, describeProxy, checkProxyUrl, NO_PROXY } from './proxy';
export type { ProxySettings, ProxyDispatcherOptions } from './proxy';
