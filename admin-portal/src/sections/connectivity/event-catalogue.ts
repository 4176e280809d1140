/** The event catalogue as the section shows it: grouped by category, with the categories' names in the portal's language. */
import type { Translator } from '../../contract';
import type { EventCatalogueEntry, EventCategory } from './connectivity-types';

/** Catalogue keys of the category names (one per category of the catalogue). */
const CATEGORY_KEYS: Readonly<Record<EventCategory, string>> = {
  users: 'connectivity.category.users',
  authentication: 'connectivity.category.authentication',
  roles: 'connectivity.category.roles',
  groups: 'connectivity.category.groups',
  api_tokens: 'connectivity.category.apiTokens',
  sso: 'connectivity.category.sso',
  scim: 'connectivity.category.scim',
  security: 'connectivity.category.security',
  billing: 'connectivity.category.billing',
  sub_accounts: 'connectivity.category.subAccounts',
  webhooks: 'connectivity.category.webhooks',
};

/** A category's name; a category this portal does not know yet shows as the server wrote it. */
export function categoryLabel(t: Translator, category: EventCategory | string): string {
  const key = CATEGORY_KEYS[category as EventCategory];
  return key ? t.t(key) : category;
}

/** The entries per category, categories in the order they first appear in the catalogue. */
export function groupByCategory(entries: readonly EventCatalogueEntry[]): [string, EventCatalogueEntry[]][] {
  const groups = new Map<string, EventCatalogueEntry[]>();
  for (const entry of entries) {
    const list = groups.get(entry.category);
    if (list) list.push(entry);
    else groups.set(entry.category, [entry]);
  }
  return [...groups];
}
