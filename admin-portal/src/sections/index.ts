/** Lazy section registry: each section is its own chunk, loaded when first opened. */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
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
  sso: () => import('./sso'),
  provisioning: () => import('./provisioning'),
  audits: () => import('./audits'),
  webhooks: () => import('./webhooks'),
  apiTokens: () => import('./api-tokens'),
  usage: () => import('./usage'),
  subscription: () => import('./subscription'),
  allAccounts: () => import('./all-accounts'),
};

const cache = new Map<SectionId, LazyExoticComponent<ComponentType<SectionProps>>>();

/** The lazy component for a section, created once per section. */
export function sectionComponent(id: SectionId): LazyExoticComponent<ComponentType<SectionProps>> {
  let component = cache.get(id);
  if (!component) {
    component = lazy(loaders[id]);
    cache.set(id, component);
  }
  return component;
}

/** Drops a section's lazy component (after its chunk failed to load) so the next render imports it again. */
export function forgetSection(id: SectionId): void {
  cache.delete(id);
}
