/**
 * The identity providers a SCIM connection can come from (seed 001 section 3 "SCIM source:
 * frontegg, okta, azure-ad, other"), in the tenant's terms, and the setup steps the portal shows for
 * each. The seed's `frontegg` is the vendor's own name: to a tenant it is their own SCIM client (a
 * script or an HR system calling the API), so it is never shown by that name.
 */
import type { ScimSource } from '@gatehouse/shared/admin-paths';

/** The order the create dialog offers them: the two named identity providers first. */
export const SOURCE_CHOICES: readonly ScimSource[] = ['okta', 'azure-ad', 'other', 'frontegg'];

/** Catalog keys of a source's name and of the one line under it in the create dialog. */
export const SOURCE_LABELS: Readonly<Record<ScimSource, { name: string; hint: string }>> = {
  okta: { name: 'provisioning.source.okta', hint: 'provisioning.source.oktaHint' },
  'azure-ad': { name: 'provisioning.source.azureAd', hint: 'provisioning.source.azureAdHint' },
  other: { name: 'provisioning.source.other', hint: 'provisioning.source.otherHint' },
  frontegg: { name: 'provisioning.source.custom', hint: 'provisioning.source.customHint' },
};

/**
 * The setup steps for each source, as catalog keys; each step may use `{baseUrl}`. Where to paste
 * the base URL and the token, how to authenticate, and what to turn on, in the provider's own words.
 */
export const SETUP_STEPS: Readonly<Record<ScimSource, readonly string[]>> = {
  okta: [
    'provisioning.steps.okta.1',
    'provisioning.steps.okta.2',
    'provisioning.steps.okta.3',
    'provisioning.steps.okta.4',
    'provisioning.steps.okta.5',
  ],
  'azure-ad': [
    'provisioning.steps.azureAd.1',
    'provisioning.steps.azureAd.2',
    'provisioning.steps.azureAd.3',
    'provisioning.steps.azureAd.4',
    'provisioning.steps.azureAd.5',
  ],
  other: [
    'provisioning.steps.other.1',
    'provisioning.steps.other.2',
    'provisioning.steps.other.3',
    'provisioning.steps.other.4',
  ],
  frontegg: [
    'provisioning.steps.custom.1',
    'provisioning.steps.custom.2',
    'provisioning.steps.custom.3',
  ],
};

/** The SCIM attributes the portal tells an admin to map, and what each becomes here (catalog keys). */
export const ATTRIBUTE_MAP: readonly { scim: string; meaning: string }[] = [
  { scim: 'userName', meaning: 'provisioning.attributes.userName' },
  { scim: 'emails[primary]', meaning: 'provisioning.attributes.email' },
  { scim: 'displayName', meaning: 'provisioning.attributes.displayName' },
  { scim: 'name.givenName, name.familyName', meaning: 'provisioning.attributes.name' },
  { scim: 'title', meaning: 'provisioning.attributes.jobTitle' },
  { scim: 'phoneNumbers[primary]', meaning: 'provisioning.attributes.phone' },
  { scim: 'active', meaning: 'provisioning.attributes.active' },
  { scim: 'externalId', meaning: 'provisioning.attributes.externalId' },
  { scim: 'Group: displayName, members', meaning: 'provisioning.attributes.groups' },
];
