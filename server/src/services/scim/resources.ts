/**
 * Mapping between Gatehouse's users and groups and SCIM User and Group resources.
 *
 * What is kept where (the SCIM store is part B's; these are the shapes it keeps):
 * - The canonical SCIM body of a provisioned user (normalizeResource's output: userName, externalId,
 *   name, emails, phoneNumbers, addresses, title, the enterprise extension …) is kept whole, per
 *   tenant, as the SCIM record's `attributes`; SCIM reads answer it, so what a client wrote is what it
 *   reads back.
 * - The Gatehouse user's own columns are derived from it by `userColumns`: email (primary email, else
 *   the first, else userName when it is an address), name (displayName, else name.formatted, else
 *   given + family name, else userName), phone number (primary), job title (title). `active` is the
 *   membership of the tenant (user_tenants.disabled_at), not the user: deactivating in one tenant
 *   leaves the person's other tenants alone.
 * - userName and externalId are unique per tenant (not global like Gatehouse usernames).
 * - A group is `groups.name` = displayName, externalId with the SCIM record, members = group_users.
 * - `groups` of a User and `display` of members are computed at read time (readOnly).
 */
import { etagOf } from './etag';
import { getCi, type JsonObject } from './filter-match';
import type { ResourceBody } from './normalize';
import { SCHEMA_ENTERPRISE_USER, SCHEMA_GROUP, SCHEMA_USER } from './schemas';

/** A provisioned user as the SCIM store holds it in one tenant. */
export interface ScimUserRecord {
  id: string;
  /** The canonical body last written (normalizeResource(…, USER_RESOURCE)). */
  attributes: ResourceBody;
  /** Whether the user's membership of the tenant is active; overrides `attributes.active` (absent there: unset, answered absent while active). */
  active: boolean;
  /** The tenant's groups the user is a direct member of. */
  groups: { id: string; displayName: string }[];
  /** Epoch milliseconds. */
  created: number;
  lastModified: number;
  /** Raised on every write; the ETag is `W/"<version>"`. */
  version: number;
  /** Whether SCIM created the account (it may then write the account's own fields and delete it). */
  createdAccount: boolean;
}

/** A group as the SCIM store holds it. */
export interface ScimGroupRecord {
  id: string;
  displayName: string;
  externalId: string | null;
  members: { id: string; display: string | null }[];
  created: number;
  lastModified: number;
  version: number;
}

/** The Gatehouse user fields a SCIM body sets (see the module comment for the rules). */
export interface UserColumns {
  userName: string;
  externalId: string | null;
  email: string | null;
  name: string;
  phoneNumber: string | null;
  jobTitle: string | null;
  /** Absent `active` means active (RFC 7643: the service decides; Okta omits it on create). */
  active: boolean;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** The primary value of a multi-valued attribute, else its first, else null. */
function primaryValue(list: unknown): string | null {
  if (!Array.isArray(list)) return null;
  const items = list as JsonObject[];
  const chosen = items.find((x) => x.primary === true) ?? items[0];
  return chosen ? str(chosen.value) : null;
}

/** Derives the Gatehouse user columns from a canonical SCIM User body. */
export function userColumns(body: ResourceBody): UserColumns {
  const userName = str(body.userName) ?? '';
  const name = (body.name ?? {}) as JsonObject;
  const given = str(name.givenName);
  const family = str(name.familyName);
  const email = primaryValue(body.emails) ?? (userName.includes('@') ? userName : null);
  return {
    userName,
    externalId: str(body.externalId),
    email: email ? email.toLowerCase() : null,
    name: str(body.displayName) ?? str(name.formatted) ?? ([given, family].filter(Boolean).join(' ') || userName),
    phoneNumber: primaryValue(body.phoneNumbers),
    jobTitle: str(body.title),
    active: body.active !== false,
  };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** `baseUrl` is the tenant's SCIM root, e.g. `https://id.example.com/scim/v2` (no trailing slash). */
export function toScimUser(record: ScimUserRecord, baseUrl: string): JsonObject {
  const { schemas: _schemas, ...attributes } = record.attributes;
  const schemas = [SCHEMA_USER];
  if (getCi(record.attributes, SCHEMA_ENTERPRISE_USER) !== undefined) schemas.push(SCHEMA_ENTERPRISE_USER);
  const out: JsonObject = { schemas, id: record.id, ...attributes };
  // `active` as last written, the membership's state winning when it is off; a client's `remove` of
  // `active` leaves it unset (answered absent), which the membership reads as active.
  if (!record.active) out.active = false;
  else if (attributes.active !== undefined) out.active = true;
  if (record.groups.length > 0) {
    out.groups = record.groups.map((g) => ({ value: g.id, display: g.displayName, $ref: `${baseUrl}/Groups/${encodeURIComponent(g.id)}`, type: 'direct' }));
  }
  out.meta = { resourceType: 'User', created: iso(record.created), lastModified: iso(record.lastModified), location: `${baseUrl}/Users/${encodeURIComponent(record.id)}`, version: etagOf(record.version) };
  return out;
}

/** The SCIM Group for a record. */
export function toScimGroup(record: ScimGroupRecord, baseUrl: string): JsonObject {
  const out: JsonObject = { schemas: [SCHEMA_GROUP], id: record.id };
  if (record.externalId !== null) out.externalId = record.externalId;
  out.displayName = record.displayName;
  out.members = record.members.map((m) => ({
    value: m.id,
    $ref: `${baseUrl}/Users/${encodeURIComponent(m.id)}`,
    type: 'User',
    ...(m.display !== null ? { display: m.display } : {}),
  }));
  out.meta = { resourceType: 'Group', created: iso(record.created), lastModified: iso(record.lastModified), location: `${baseUrl}/Groups/${encodeURIComponent(record.id)}`, version: etagOf(record.version) };
  return out;
}

/** The Gatehouse group fields a canonical SCIM Group body sets; member ids are de-duplicated, in order. */
export interface GroupColumns {
  displayName: string;
  externalId: string | null;
  memberIds: string[];
}

/** Derives the group columns from a canonical SCIM Group body. */
export function groupColumns(body: ResourceBody): GroupColumns {
  const members = Array.isArray(body.members) ? (body.members as JsonObject[]) : [];
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const m of members) {
    const id = str(m.value);
    if (id && !seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  }
  return { displayName: str(body.displayName) ?? '', externalId: str(body.externalId), memberIds: ids };
}
