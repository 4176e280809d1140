/**
 * The tenant's custom login look from Account settings (seed 001: title, colour, logo), read from the
 * public account-settings call for the tenant the login URL names (`?tenantId=`, the seed's scoped
 * tenant). Without one, or while custom login is off, nothing changes.
 */
import { useEffect, useState, type CSSProperties } from 'react';
import { ApiPaths, contrastRatio, defaultTheme, type GatehouseApi } from '@gatehouse/shared';
import type { PublicAccountSettings } from '@gatehouse/shared/wire';

export interface CustomLogin {
  title: string | null;
  logo: string | null;
  companyName: string | null;
  /** CSS variables (theme tokens) for the brand colour, only where it keeps WCAG AA contrast. */
  style: CSSProperties | undefined;
}

const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const HEX = /^#[0-9a-fA-F]{6}$/;
const AA = 4.5;

/** The brand colour as the primary token of each scheme in which text on it and it on the surface stay readable. */
export function brandColorVariables(color: string | null): CSSProperties | undefined {
  if (!color || !HEX.test(color)) return undefined;
  const vars: Record<string, string> = {};
  const onColor = (c: string) => [defaultTheme.light.onPrimary, defaultTheme.light.text].sort((a, b) => contrastRatio(c, b) - contrastRatio(c, a))[0]!;
  if (contrastRatio(color, defaultTheme.light.surface) >= AA && contrastRatio(color, onColor(color)) >= AA) {
    vars['--gh-primary'] = color;
    vars['--gh-on-primary'] = onColor(color);
    vars['--gh-focus'] = color;
  }
  if (contrastRatio(color, defaultTheme.dark.surface) >= AA && contrastRatio(color, onColor(color)) >= AA) {
    vars['--gh-dark-primary'] = color;
    vars['--gh-dark-on-primary'] = onColor(color);
    vars['--gh-dark-focus'] = color;
  }
  return Object.keys(vars).length ? (vars as CSSProperties) : undefined;
}

/** An image URL the box may show: http(s) only. */
function safeImage(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export function useCustomLogin(api: GatehouseApi, tenantId: string | null): CustomLogin | null {
  const [look, setLook] = useState<CustomLogin | null>(null);
  useEffect(() => {
    setLook(null);
    if (!tenantId || !TENANT_ID.test(tenantId)) return;
    let live = true;
    api.request<PublicAccountSettings>('GET', ApiPaths.accountSettingsPublic, { query: { tenantId } }).then(
      (settings) => {
        if (!live || !settings.hasCustomLogin) return;
        setLook({ title: settings.loginTitle?.trim() || null, logo: safeImage(settings.logo), companyName: settings.companyName, style: brandColorVariables(settings.loginColor) });
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
