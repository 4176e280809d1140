/**
 * The identity providers the SSO section guides an admin through (issue 15): for each, what that
 * IdP calls the values it needs from us, and its steps (catalog keys of sso.ts). OIDC has one
 * generic guide; every SAML IdP shares the same values under its own names.
 */
import type { SsoConfiguration, SsoType } from '@gatehouse/shared/wire';

export const PROVIDERS = ['okta', 'entra', 'google', 'onelogin', 'jumpcloud', 'adfs', 'saml', 'oidc'] as const;
export type ProviderId = (typeof PROVIDERS)[number];

export interface ProviderGuide {
  protocol: SsoType;
  /** Catalog key of the IdP's name. */
  name: string;
  /** Catalog keys of what the IdP calls our ACS URL and our entity id (SAML). */
  acsLabel: string;
  entityIdLabel: string;
  /** Catalog keys of the steps, in order. */
  steps: readonly string[];
}

const stepsOf = (id: ProviderId, count: number) => Array.from({ length: count }, (_, i) => `sso.guide.${id}.step${i + 1}`);

export const GUIDES: Readonly<Record<ProviderId, ProviderGuide>> = {
  okta: { protocol: 'saml', name: 'sso.provider.okta', acsLabel: 'sso.guide.okta.acs', entityIdLabel: 'sso.guide.okta.entityId', steps: stepsOf('okta', 4) },
  entra: { protocol: 'saml', name: 'sso.provider.entra', acsLabel: 'sso.guide.entra.acs', entityIdLabel: 'sso.guide.entra.entityId', steps: stepsOf('entra', 4) },
  google: { protocol: 'saml', name: 'sso.provider.google', acsLabel: 'sso.guide.google.acs', entityIdLabel: 'sso.guide.google.entityId', steps: stepsOf('google', 4) },
  onelogin: { protocol: 'saml', name: 'sso.provider.onelogin', acsLabel: 'sso.guide.onelogin.acs', entityIdLabel: 'sso.guide.onelogin.entityId', steps: stepsOf('onelogin', 4) },
  jumpcloud: { protocol: 'saml', name: 'sso.provider.jumpcloud', acsLabel: 'sso.guide.jumpcloud.acs', entityIdLabel: 'sso.guide.jumpcloud.entityId', steps: stepsOf('jumpcloud', 4) },
  adfs: { protocol: 'saml', name: 'sso.provider.adfs', acsLabel: 'sso.guide.adfs.acs', entityIdLabel: 'sso.guide.adfs.entityId', steps: stepsOf('adfs', 4) },
  saml: { protocol: 'saml', name: 'sso.provider.saml', acsLabel: 'sso.guide.saml.acs', entityIdLabel: 'sso.guide.saml.entityId', steps: stepsOf('saml', 3) },
  oidc: { protocol: 'oidc', name: 'sso.provider.oidc', acsLabel: 'sso.guide.saml.acs', entityIdLabel: 'sso.guide.saml.entityId', steps: stepsOf('oidc', 3) },
};

/** Hosts (and ADFS's path) by which a configured IdP is recognised, so its guide opens by itself. */
const SIGNS: readonly [ProviderId, RegExp][] = [
  ['okta', /(^|\.)(okta|oktapreview|okta-emea)\.com$/],
  ['entra', /(^|\.)(microsoftonline\.com|windows\.net)$/],
  ['google', /(^|\.)google\.com$/],
  ['onelogin', /(^|\.)onelogin\.com$/],
  ['jumpcloud', /(^|\.)jumpcloud\.com$/],
];

/** The guide for a configuration: its IdP recognised from the sign-in URL or entity id, else the generic one of its protocol. */
export function guessProvider(config: Pick<SsoConfiguration, 'type' | 'ssoEndpoint' | 'idpEntityId'>): ProviderId {
  if (config.type === 'oidc') return 'oidc';
  for (const raw of [config.ssoEndpoint, config.idpEntityId]) {
    if (!raw) continue;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    const host = url.hostname.toLowerCase();
    const found = SIGNS.find(([, sign]) => sign.test(host));
    if (found) return found[0];
    if (/\/adfs\//i.test(url.pathname)) return 'adfs';
  }
  return 'saml';
}

/** The redirect URI to register at an OIDC IdP: the login box's callback route on the page's own origin. */
export function oidcRedirectUri(origin: string): string {
  return `${origin.replace(/\/$/, '')}/account/oidc/callback`;
}
