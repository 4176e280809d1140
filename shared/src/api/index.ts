export { createApiClient, buildQuery, type ApiClientOptions, type HttpMethod, type ResponseType } from './client';
export { errorFromResponse } from './http-error';
export { withRefreshLock } from './refresh-lock';
