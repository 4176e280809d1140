/**
 * @gatehouse/shared: the framework-agnostic browser core. No React, and no zod at runtime: wire
 * values come only from the plain-data files (error codes, paths, permissions); schemas as types.
 */
export type { GatehouseError, AuthRoutes, LoginStep, SignUpStage, ActivateStep, AuthUser, AuthSnapshot, GatehouseStore, GatehouseApi, ThemeTokens, MountProps } from './core/types';
export type { LoginResponse, MeResponse, SignUpRequest, SignUpResponse, UpdateMeRequest, ActivateRequest, PasswordConfig, VendorPublicConfig, MeTenantsV3Response, TenantSummary, AccessTokenClaims } from './wire';

export { ApiPaths } from './wire/paths';
export type { MfaStep, MfaState } from './core/types';
export type { MfaDevices, MfaStrategyState } from './wire/mfa/mfa';
export { isSteppedUp, STEP_UP_METHODS, type StepUpClaims } from './wire/mfa/step-up';
export { ErrorCodes, TRACE_ID_HEADER, GENERIC_ERROR_MESSAGE, type ErrorCode, type ErrorBody } from './wire/error-codes';
export { SelfServiceErrorCodes } from './wire/users/self-service-paths';

export { createApiClient, buildQuery, errorFromResponse, type ApiClientOptions, type HttpMethod, type ResponseType } from './api';
export { createGatehouseStore, createGatehouse, systemTimers, type GatehouseStoreOptions, type CreateGatehouseOptions, type KeyValueStorage, type Timers } from './auth';
export { defaultRoutes, mergeRoutes, matchRoute, isAuthRoute, normalizePath, type RouteName } from './routes';
export { getValidRedirectUrl, getAfterAuthTarget, type RedirectValidationOptions } from './redirect';
export { ErrorMessages, GENERIC_ERROR_CODE, createGatehouseError, isGatehouseError, toGatehouseError, errorMessageOf } from './errors';
export { isFlagOn } from './flags';
export type { PasskeysState, PasskeyLoginCeremony, PasskeyRegistrationCeremony } from './core/types';
export type { CaptchaPolicy, CaptchaTokenProvider } from './core/types';
export type { CaptchaAction } from './wire/platform/captcha';
export type { PasskeyDevice, PasskeyAuthenticationOptions, PasskeyRegistrationOptions } from './wire/passwordless/webauthn';
export { PASSKEYS_FLAG, PASSKEYS_STRATEGY } from './wire/passwordless/passkeys';
export { shouldPromptPasskeys, PASSKEYS_DONT_SHOW_AGAIN_KEY, PREFERRED_LOGIN_METHOD_KEY, type PasskeyPromptFacts } from './auth/passkeys-prompt';
export { defaultTheme, themeToCssVariables, resolveTheme, withHostTheme, createThemeApplier, contrastRatio, type ColorScheme, type ThemePalette, type ResolvedTheme, type ThemedElement } from './theme';
export * from './constants';
export { formatMessage, createTranslator, resolveLocale, directionOf, supportedLocale, SUPPORTED_LOCALES, DEFAULT_LOCALE, type Locale, type Messages, type MessageValues, type Translator } from './i18n';
