/**
 * The tenant's custom login look from Account settings (seed 001: title, colour, logo), read from the
 * public account-settings call for the tenant the login URL names (`?tenantId=`, the seed's scoped
 * tenant). Without one, or while custom login is off, nothing changes.
 */
import { useEffect, useState, type CSSProperties } from 'react';
import { ApiPaths, type GatehouseApi } from '@gatehouse/shared';
import type { PublicAccountSettings } from '@gatehouse/shared/wire';

export interface CustomLogin {
  title: string | null;
  logo: string | null;
  companyName: string | null;
  /** CSS variables (theme tokens) for the brand colour, only where it keeps WCAG AA contrast. */
  style: CSSProperties | undefined;
}

const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function useCustomLogin(api: GatehouseApi, tenantId: string | null): CustomLogin | null {
  const [look, setLook] = useState<CustomLogin | null>(null);
  useEffect(() => {
    setLook(null);
    if (!tenantId || !TENANT_ID.test(tenantId)) return;
    let live = true;
    // The code that turns the settings into a look (custom-login-look.ts) comes beside the call.
    Promise.all([api.request<PublicAccountSettings>('GET', ApiPaths.accountSettingsPublic, { query: { tenantId } }), import('./custom-login-look')]).then(
      ([settings, { lookOf }]) => {
        if (live && settings.hasCustomLogin) setLook(lookOf(settings));
      },
      // The look is decoration: without it the box works as usual.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, tenantId]);
  return look;
}
