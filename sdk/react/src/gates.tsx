/** Gates (seed 000 section 6): content shown only to whom it is for; super users always pass. */
import type { ReactNode } from 'react';
import { hasPlan, passesGate } from './gate-rules.js';
import { useEntitlements, useUser } from './hooks.js';

export interface AuthorizedContentProps {
  requiredPermissions?: readonly string[];
  requiredRoles?: readonly string[];
  /** Shown instead when the gate does not pass (default: nothing). */
  fallback?: ReactNode;
  children?: ReactNode;
}

/** Shows `children` to a super user, or to a user holding every required permission and role key. */
export function AuthorizedContent({ requiredPermissions, requiredRoles, fallback = null, children }: AuthorizedContentProps) {
  const user = useUser();
  return <>{passesGate(user, { permissions: requiredPermissions ?? [], roles: requiredRoles ?? [] }) ? children : fallback}</>;
}

export type ProtectProps = ({ feature: string } | { permission: string } | { plan: string }) & {
  fallback?: ReactNode;
  children?: ReactNode;
};

/**
 * Shows `children` when the user is entitled (the loader's `isEntitledTo`) to `feature` or
 * `permission`, or is on `plan`; `fallback` otherwise, also while entitlements load.
 */
export function Protect(props: ProtectProps) {
  const user = useUser();
  const { entitlements, isEntitledTo } = useEntitlements();
  let allowed = false;
  if (user?.superUser === true) allowed = true;
  else if (user && 'feature' in props) allowed = isEntitledTo({ featureKey: props.feature }).isEntitled;
  else if (user && 'permission' in props) allowed = isEntitledTo({ permissionKey: props.permission }).isEntitled;
  else if (user && 'plan' in props) allowed = hasPlan(entitlements, props.plan);
  return <>{allowed ? props.children : (props.fallback ?? null)}</>;
}
