/** @gatehouse/react: the provider, hooks over the loader's store, and the gates. */
export { GatehouseProvider, type GatehouseProviderProps } from './GatehouseProvider.js';
export { useAuth, useUser, useTenants, useAuthActions, usePermissions, useEntitlements, useFeatureFlag, useAdminPortal, useCheckout, useIsSteppedUp } from './hooks.js';
export type { AuthState, TenantsState, AuthActions, PermissionsState, EntitlementsState } from './hooks.js';
export { AuthorizedContent, Protect, type AuthorizedContentProps, type ProtectProps } from './gates.js';
export { createGatehouseClient, GatehouseAppNameMismatchError, DEFAULT_APP_NAME, type GatehouseClient, type GatehouseClientOptions, type GatehouseState } from './client.js';
export { loadLoaderScript, type LoaderScript, type GatehouseSdkError } from './load-loader.js';
export { passesGate, hasPlan } from './gate-rules.js';
export { isSteppedUp, tokenClaims, MULTI_FACTOR_ACR, STEP_UP_METHODS, type StepUpClaims } from './step-up.js';
export type * from './types.js';
