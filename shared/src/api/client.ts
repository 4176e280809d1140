/**
 * The browser's HTTP client for the identity API (seed 000 section 7 preamble and section 8), on ky.
 * Every failure surfaces as a GatehouseError; callers never see ky's error classes.
 */
import { withRefreshLock } from './refresh-lock';
import ky, { HTTPError, type Options } from 'ky';
import type { GatehouseApi } from '../core/types';
import type { ActivateRequest, LoginResponse, MeResponse, MeTenantsV3Response, MetadataResponse, PasswordConfig, SignUpRequest, SignUpResponse, UpdateMeRequest, VendorPublicConfig } from '../wire';
import { ApiPaths } from '../wire/paths';
import { CLIENT_ID_HEADER, LOCALE_HEADER, FETCH_RETRY_ATTEMPTS, FETCH_RETRY_DELAY_MS, SCOPED_TENANT_PARAM, SDK_HEADER, SDK_MARKER, SOURCE_HEADER } from '../constants';
import { createGatehouseError, ErrorMessages, isGatehouseError, toGatehouseError } from '../errors';
import { errorFromResponse } from './http-error';
import { validHeaders } from './client-headers';

export { validHeaders };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ResponseType = 'json' | 'text' | 'blob' | 'stream';

export interface ApiClientOptions {
  /** Absolute base URL of the identity API (`contextOptions.baseUrl`). */
  baseUrl: string;
  clientId: string;
  /** The current access token, or null when signed out. Read on every call. */
  getAccessToken: () => string | null | undefined;
  fetch?: typeof globalThis.fetch;
  /** Value of the source header, e.g. 'login-box'. */
  source?: string;
  /**
   * The host's `locale` option (a BCP 47 tag), sent as X-Gatehouse-Locale so the server writes the
   * emails a call causes in that language; without it the server reads Accept-Language.
   */
  locale?: string;
  /** Seed 000 section 7.3: the login alias, the requested application id and the host framework's marker (e.g. `@gatehouse/react@1.0.0`), sent as headers. */
  loginAlias?: string;
  applicationId?: string;
  framework?: string;
  /** Called when a call that carried a token got 401. */
  onUnauthorized?: (error: import('../core/types').GatehouseError) => void;
  /** Where a 302 response sends the browser (default: `location.assign`). */
  navigate?: (url: string) => void;
  /** The page's query string, for the scoped tenant (default: `location.search`). */
  getLocationSearch?: () => string;
  /** Retry policy for failed fetches; the seed's default is 3 attempts, 500 ms apart. */
  retry?: { attempts?: number; delayMs?: number };
  /** Per-attempt timeout in ms (default 30000). */
  timeoutMs?: number;
}

const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'PUT', 'DELETE']);
const RETRY_STATUSES: readonly number[] = [502, 503, 504];

function defaultNavigate(url: string): void {
  globalThis.location?.assign(url);
}

function defaultSearch(): string {
  return globalThis.location?.search ?? '';
}

/** Query values: objects are JSON-stringified, undefined and null are left out. */
export function buildQuery(query: Record<string, unknown> | undefined, scopedTenant: string | null): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  if (scopedTenant && !params.has(SCOPED_TENANT_PARAM)) params.set(SCOPED_TENANT_PARAM, scopedTenant);
  return params;
}

/** Only http(s) targets may be navigated to from a response body (never javascript: or data:). */
function isWebUrl(target: string): boolean {
  try {
    const url = new URL(target, globalThis.location?.href ?? 'http://localhost/');
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,4}$/;

/** The `locale` option as a header value, or undefined when it is not a language tag. */
export function localeHeaderValue(locale: unknown): string | undefined {
  return typeof locale === 'string' && locale.length <= 35 && LANGUAGE_TAG.test(locale) ? locale : undefined;
}

/** Creates the API client every bundle uses. */
export function createApiClient(options: ApiClientOptions): GatehouseApi {
  const base = options.baseUrl.replace(/\/+$/, '');
  const navigate = options.navigate ?? defaultNavigate;
  const getSearch = options.getLocationSearch ?? defaultSearch;
  const attempts = Math.max(1, options.retry?.attempts ?? FETCH_RETRY_ATTEMPTS);
  const delayMs = options.retry?.delayMs ?? FETCH_RETRY_DELAY_MS;
  const locale = localeHeaderValue(options.locale);
  // Fixed per client; a value fetch would refuse is dropped rather than failing every call.
  // The names of client-headers.ts, written out: the runtime's bundler keeps module constants as variables (bytes before the login form).
  const fixed = validHeaders({ [SDK_HEADER]: SDK_MARKER, [CLIENT_ID_HEADER]: options.clientId, 'x-gatehouse-login-alias': options.loginAlias, 'x-gatehouse-application-id': options.applicationId, 'x-gatehouse-framework': options.framework });

  async function request<T>(
    method: HttpMethod,
    path: string,
    { body, query, responseType = 'json', retry = true }: { body?: unknown; query?: Record<string, unknown>; responseType?: ResponseType; retry?: boolean } = {},
  ): Promise<T> {
    let scopedTenant: string | null = null;
    try {
      scopedTenant = new URLSearchParams(getSearch()).get(SCOPED_TENANT_PARAM);
    } catch {
      scopedTenant = null;
    }
    const search = buildQuery(query, scopedTenant).toString();
    const url = `${base}${path.startsWith('/') ? path : `/${path}`}${search ? `${path.includes('?') ? '&' : '?'}${search}` : ''}`;
    const token = options.getAccessToken();
    const headers: Record<string, string> = {
      // A stream asks for server-sent events: a server streams only to a client that accepts them.
      accept: responseType === 'json' ? 'application/json' : responseType === 'stream' ? 'text/event-stream' : '*/*',
      ...fixed,
      ...validHeaders({ 'x-gatehouse-tenant-id': scopedTenant }),
    };
    if (options.source) headers[SOURCE_HEADER] = options.source;
    if (locale) headers[LOCALE_HEADER] = locale;
    if (token) headers.authorization = `Bearer ${token}`;

    const kyOptions: Options = {
      method,
      headers,
      credentials: 'include',
      timeout: options.timeoutMs ?? 30_000,
      throwHttpErrors: true,
      retry: {
        limit: retry ? attempts - 1 : 0,
        methods: ['get', 'post', 'put', 'patch', 'delete'],
        statusCodes: RETRY_STATUSES as number[],
        afterStatusCodes: [],
        delay: () => delayMs,
        // Network failures are retried for every method (the request never reached the server
        // as far as we can tell); gateway errors only for idempotent methods; 4xx never.
        shouldRetry: ({ error }) => {
          if (error instanceof HTTPError) return IDEMPOTENT.has(method) && RETRY_STATUSES.includes(error.response.status);
          // fetch rejects with a TypeError when the request never got a response.
          return error instanceof TypeError;
        },
      },
    };
    if (options.fetch) kyOptions.fetch = options.fetch;
    if (body !== undefined) kyOptions.json = body;

    let response: Response;
    try {
      response = await ky(url, kyOptions);
    } catch (error) {
      throw await convertError(error, Boolean(token));
    }
    return (await readBody(response, responseType)) as T;
  }

  async function convertError(error: unknown, hadToken: boolean): Promise<unknown> {
    if (error instanceof HTTPError) {
      const data = await error.response.text().catch(() => undefined);
      if (error.response.status === 302) {
        const target = typeof data === 'string' ? data.trim() : '';
        if (target && isWebUrl(target)) navigate(target);
        return createGatehouseError('Redirecting', 302);
      }
      const converted = errorFromResponse(error.response, data);
      if (converted.statusCode === 401 && hadToken) options.onUnauthorized?.(converted);
      return converted;
    }
    return isGatehouseError(error) ? error : toGatehouseError(error);
  }

  async function readBody(response: Response, responseType: ResponseType): Promise<unknown> {
    switch (responseType) {
      case 'stream':
        return response.body;
      case 'blob':
        return response.blob();
      case 'text':
        return response.text();
      default: {
        const text = await response.text();
        if (!text) return undefined;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw createGatehouseError(ErrorMessages.generic, 500, { traceId: response.headers.get('x-trace-id') ?? undefined });
        }
      }
    }
  }

  return {
    request,
    login: (body) => request<LoginResponse>('POST', ApiPaths.login, { body }),
    // Never retried: if a first attempt reached the server and rotated the token, a retry would
    // present the old token again and the server would revoke the session as a replay.
    refresh: (tenantId) => withRefreshLock(base, () => request<LoginResponse>('POST', ApiPaths.refresh, { body: tenantId ? { tenantId } : {}, retry: false })),
    logout: async () => {
      await request<void>('POST', ApiPaths.logout, { body: {} });
    },
    me: () => request<MeResponse>('GET', ApiPaths.me),
    updateMe: (body: UpdateMeRequest) => request<MeResponse>('PUT', ApiPaths.me, { body }),
    uploadProfileImage: (dataUrl) => request<{ profilePictureUrl: string }>('PUT', ApiPaths.profileImage, { body: { profileImage: dataUrl } }),
    meTenants: () => request<MeTenantsV3Response>('GET', ApiPaths.meTenantsV3),
    switchTenant: async (tenantId) => {
      await request<void>('PUT', ApiPaths.switchTenant, { body: { tenantId } });
    },
    signUp: (body: SignUpRequest) => request<SignUpResponse>('POST', ApiPaths.signUp, { body }),
    activate: (body: ActivateRequest) => request<LoginResponse>('POST', ApiPaths.activate, { body }),
    activateStrategy: (userId, token) => request<{ shouldSetPassword: boolean }>('GET', ApiPaths.activateStrategy, { query: { userId, token } }),
    resendActivation: async (email) => {
      await request<void>('POST', ApiPaths.activateResend, { body: { email } });
    },
    passwordConfig: () => request<PasswordConfig>('GET', ApiPaths.passwordsConfig),
    vendorPublic: () => request<VendorPublicConfig>('GET', ApiPaths.vendorPublic),
    flags: () => request<Record<string, string>>('GET', ApiPaths.flags),
    metadata: async (entityName) => {
      const response = await request<MetadataResponse | undefined>('GET', ApiPaths.metadata, { query: { entityName } });
      const configuration = response?.rows?.[0]?.configuration;
      if (!configuration) throw createGatehouseError(ErrorMessages.metadataNotFound, 404);
      return configuration;
    },
  };
}
