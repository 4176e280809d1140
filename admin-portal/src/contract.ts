/** The admin portal's view of the shared core: types, and values from the host-provided singleton. */
export type { MountProps, GatehouseStore, GatehouseApi, AuthSnapshot, AuthUser, ThemeTokens, GatehouseError } from '@gatehouse/shared';
export type { MeResponse, UpdateMeRequest } from '@gatehouse/shared';
export { ApiPaths, ErrorCodes } from '@gatehouse/shared';
export { Permissions, permissionMatches } from '@gatehouse/shared/admin-paths';
export { createTranslator, resolveLocale, directionOf, DEFAULT_LOCALE, SUPPORTED_LOCALES, isSteppedUp } from '@gatehouse/shared';
export type { Locale, Messages, MessageValues, Translator } from '@gatehouse/shared';
