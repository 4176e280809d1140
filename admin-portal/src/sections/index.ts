/** Lazy section registry: each section is its own chunk, loaded when first opened, together with its catalogs. */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Locale } from '../contract';
import type { Namespace } from '../i18n/namespaces';
import { loadNamespaces } from '../i18n/registry';
import type { SectionId } from '../navigation';
import type { SectionProps } from './section-props';

type SectionModule = { default: ComponentType<SectionProps> };

// Literal import() paths so the bundler can split one chunk per section.
const loaders: Record<SectionId, () => Promise<SectionModule>> = {
  profile: () => import('./profile'),
  privacy: () => import('./privacy'),
  personalApiTokens: () => import('./personal-api-tokens'),
  account: () => import('./account'),
  users: () => import('./users'),
  groups: () => import('./groups'),
  roles: () => import('./roles'),
  security: () => import('./security'),
  securityCenter: () => import('./security-center'),
  sso: () => import('./sso'),
  provisioning: () => import('./provisioning'),
  audits: () => import('./audits'),
  webhooks: () => import('./webhooks'),
  reports: () => import('./reports'),
  apiTokens: () => import('./api-tokens'),
  usage: () => import('./usage'),
  subscription: () => import('./subscription'),
  allAccounts: () => import('./all-accounts'),
  operator: () => import('./operator'),
  applications: () => import('./applications'),
};

const cache = new Map<string, LazyExoticComponent<ComponentType<SectionProps>>>();

/**
 * The lazy component for a section in `locale`, created once: it resolves when both the section's
 * chunk and its catalogs are in (fetched side by side), so it never renders untranslated.
 */
export function sectionComponent(id: SectionId, locale: Locale, namespaces: readonly Namespace[]): LazyExoticComponent<ComponentType<SectionProps>> {
  const key = `${locale}:${id}`;
  let component = cache.get(key);
  if (!component) {
    component = lazy(() => Promise.all([loaders[id](), loadNamespaces(locale, namespaces)]).then(([module]) => module));
    cache.set(key, component);
  }
  return component;
}

/** Drops a section's lazy component (after its chunk failed to load) so the next render imports it again. */
export function forgetSection(id: SectionId, locale: Locale): void {
  cache.delete(`${locale}:${id}`);
}
