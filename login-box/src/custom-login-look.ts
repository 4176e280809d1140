/**
 * The custom login look from the public account settings (use-custom-login.ts): a chunk of its own,
 * fetched beside that call only when the login URL names a tenant (login bytes budget).
 */
import type { CSSProperties } from 'react';
import { contrastRatio, defaultTheme } from '@gatehouse/shared';
import type { PublicAccountSettings } from '@gatehouse/shared/wire';
import type { CustomLogin } from './use-custom-login';

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

/** The look of a tenant whose custom login is on. */
export function lookOf(settings: PublicAccountSettings): CustomLogin {
  return { title: settings.loginTitle?.trim() || null, logo: safeImage(settings.logo), companyName: settings.companyName, style: brandColorVariables(settings.loginColor) };
}
