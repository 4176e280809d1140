/**
 * The SAML 2.0 service provider of one SSO configuration, on @node-saml/node-saml: the AuthnRequest
 * (HTTP-Redirect, signed when configured) and the checks of the IdP's response at the ACS.
 *
 * node-saml verifies the XML signature (response or assertion, with the configured certificates
 * only, refusing wrapped or multiple assertions), InResponseTo against our pending requests,
 * NotBefore/NotOnOrAfter with the clock skew, and the audience. It does not check the Issuer,
 * the Recipient of the subject confirmation or the response's Destination, so those are checked
 * here, on the signed assertion it hands back.
 */
import { DOMParser } from '@xmldom/xmldom';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import type { SsoConfigurationRow } from '../../db/queries/sso-configurations';
import { parseIds } from './configurations';
import { certificatePem } from './saml-metadata';

/** Clock difference tolerated between us and the IdP. */
export const SAML_CLOCK_SKEW_MS = 60_000;

/** Our side of one configuration: entity id (audience), ACS, and the key that signs requests when asked to. */
export interface ServiceProvider {
  entityId: string;
  acsUrl: string;
  signing: { key: string; cert: string } | null;
}

/** What a verified assertion says about the user. */
export interface SsoIdentity {
  /** Unique per configuration: the SAML NameID or the OIDC sub. */
  subject: string;
  email: string;
  name: string | null;
  groups: string[];
}

/** A response the ACS accepted: the identity, the request it answers, and the assertion's replay-cache entry. */
export interface VerifiedResponse {
  identity: SsoIdentity | null;
  requestId: string;
  assertionId: string;
  /** Until when the assertion could be replayed (its latest NotOnOrAfter). */
  validUntil: number;
  /** The NameID, and every attribute of the signed assertion with its text values (for the connection test's report). */
  nameId: string | null;
  attributes: { name: string; values: string[] }[];
}

/** A refused SAML response; `message` is for the server log only. */
export class SamlRejected extends Error {
  override name = 'SamlRejected';
}

// xml2js shapes node-saml returns for the signed assertion (prefixes stripped).
type XmlNode = { $?: Record<string, string>; _?: string } & { [child: string]: XmlNode[] | Record<string, string> | string | undefined };
const kids = (node: XmlNode | undefined, name: string): XmlNode[] => (node?.[name] as XmlNode[] | undefined) ?? [];
const attr = (node: XmlNode | undefined, name: string): string | undefined => node?.$?.[name];

/** node-saml (and its XML signature stack), loaded with the first SAML sign-in, not at start. */
const nodeSaml = () => import('@node-saml/node-saml');
type NodeSaml = Awaited<ReturnType<typeof nodeSaml>>;

function samlFor({ SAML, ValidateInResponseTo }: NodeSaml, row: SsoConfigurationRow, sp: ServiceProvider, cache: CacheProvider, requestId?: string): SAML {
  const signs = row.sign_request === 1 && sp.signing !== null;
  return new SAML({
    entryPoint: row.idp_sso_url ?? undefined,
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    idpCert: parseIds(row.idp_certificates).map(certificatePem),
    // At least one valid signature is required either way: on the response (covering the
    // assertion) or on the assertion itself.
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    // As long as a sign-in may take at the IdP (SSO_REQUEST_TTL_MS, login.ts).
    requestIdExpirationPeriodMs: 10 * 60_000,
    cacheProvider: cache,
    // Unspecified: the IdP picks the NameID; the email comes from an attribute or an email NameID.
    identifierFormat: null,
    // Do not demand password authentication: IdPs with MFA or Kerberos sign-ins would refuse.
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
    ...(signs ? { privateKey: sp.signing!.key } : {}),
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/** The IdP URL (HTTP-Redirect binding) carrying a new AuthnRequest with ID `requestId`. */
export async function authnRequestUrl(row: SsoConfigurationRow, sp: ServiceProvider, requestId: string, relayState: string): Promise<string> {
  // Our own sso_requests row is the record of issued requests; node-saml need not keep one.
  const cache: CacheProvider = { saveAsync: async () => null, getAsync: async () => null, removeAsync: async () => null };
  return samlFor(await nodeSaml(), row, sp, cache, requestId).getAuthorizeUrlAsync(relayState, undefined, {});
}

const EMAIL_ATTRIBUTES = ['email', 'mail', 'emailAddress', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3'];
const NAME_ATTRIBUTES = ['name', 'displayName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name', 'urn:oid:2.16.840.1.113730.3.1.241'];
const FIRST_NAME = ['firstName', 'givenName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'urn:oid:2.5.4.42'];
const LAST_NAME = ['lastName', 'surname', 'sn', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'urn:oid:2.5.4.4'];
const GROUP_ATTRIBUTES = ['groups', 'group', 'memberOf', 'http://schemas.xmlsoap.org/claims/Group', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'];

function values(attributes: Record<string, unknown>, names: readonly string[]): string[] {
  for (const name of names) {
    const value = attributes[name];
    const list = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
    if (list.length) return list;
  }
  return [];
}

/** The identity from the assertion's attributes (common names of Okta, Entra ID, ADFS, Google, Shibboleth). */
function identityOf(profile: Profile): SsoIdentity | null {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const nameId = profile.nameID?.trim();
  if (!nameId) return null;
  const email = values(attributes, EMAIL_ATTRIBUTES)[0] ?? (nameId.includes('@') ? nameId : undefined);
  if (!email) return null;
  const full = values(attributes, NAME_ATTRIBUTES)[0];
  const parts = [values(attributes, FIRST_NAME)[0], values(attributes, LAST_NAME)[0]].filter(Boolean).join(' ');
  return { subject: nameId, email: email.toLowerCase(), name: full ?? (parts || null), groups: values(attributes, GROUP_ATTRIBUTES) };
}

// Bounds of what a report keeps of an assertion: an IdP may send anything.
const MAX_ATTRIBUTES = 100;
const MAX_VALUES = 50;
const MAX_VALUE_LENGTH = 512;

/** The assertion's attributes as name -> text values, bounded (node-saml hands back a string or a list per name). */
function attributesOf(profile: Profile): { name: string; values: string[] }[] {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  return Object.keys(attributes)
    .slice(0, MAX_ATTRIBUTES)
    .map((name) => {
      const value = attributes[name];
      const list = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
      return { name: name.slice(0, MAX_VALUE_LENGTH), values: list.slice(0, MAX_VALUES).map((v) => v.slice(0, MAX_VALUE_LENGTH)) };
    });
}

function latest(...times: (string | undefined)[]): number {
  return Math.max(0, ...times.map((t) => (t ? Date.parse(t) : NaN)).filter((t) => Number.isFinite(t)));
}

/**
 * Checks a posted SAMLResponse for one configuration. `isPending(id)` tells whether `id` is an
 * AuthnRequest of this configuration still waiting for its answer. Throws SamlRejected.
 */
export async function verifySamlResponse(
  row: SsoConfigurationRow,
  sp: ServiceProvider,
  samlResponse: string,
  isPending: (requestId: string) => Promise<boolean>,
): Promise<VerifiedResponse> {
  // Only our own pending requests are known; an unsolicited or unknown InResponseTo is refused.
  const cache: CacheProvider = {
    saveAsync: async () => null,
    getAsync: async (key) => ((await isPending(key)) ? new Date().toISOString() : null),
    removeAsync: async () => null,
  };
  const lib = await nodeSaml();
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(lib, row, sp, cache).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw new SamlRejected(err instanceof Error ? err.message : String(err));
  }
  if (!profile) throw new SamlRejected('the response holds no assertion');

  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  if (!assertion) throw new SamlRejected('the signed assertion could not be read');
  const assertionId = attr(assertion, 'ID');
  if (!assertionId) throw new SamlRejected('the assertion has no ID');
  if (profile.issuer !== row.idp_entity_id) throw new SamlRejected(`the assertion's issuer ${String(profile.issuer)} is not the configured IdP`);

  // The response envelope (signed or not) must be addressed to our ACS.
  const destination = new DOMParser().parseFromString(profile.getSamlResponseXml?.() ?? '<none/>', 'text/xml').documentElement?.getAttribute('Destination') || undefined;
  if (destination !== undefined && destination !== sp.acsUrl) throw new SamlRejected(`the response's Destination ${destination} is not our ACS`);

  // Bearer confirmation, signed: for our ACS, in answer to the request named by the response.
  const subject = kids(assertion, 'Subject')[0];
  const confirmations = kids(subject, 'SubjectConfirmation').filter((c) => attr(c, 'Method') === 'urn:oasis:names:tc:SAML:2.0:cm:bearer');
  const data = confirmations.flatMap((c) => kids(c, 'SubjectConfirmationData'));
  const requestId = profile.inResponseTo as string | undefined;
  const confirmed = data.find((d) => attr(d, 'Recipient') === sp.acsUrl && attr(d, 'InResponseTo') === requestId);
  if (!requestId || !confirmed) throw new SamlRejected('no bearer SubjectConfirmation names our ACS as Recipient and our request as InResponseTo');

  const conditions = kids(assertion, 'Conditions')[0];
  const validUntil = latest(attr(conditions, 'NotOnOrAfter'), attr(confirmed, 'NotOnOrAfter'));
  return { identity: identityOf(profile), requestId, assertionId, validUntil: validUntil + SAML_CLOCK_SKEW_MS, nameId: profile.nameID?.trim() || null, attributes: attributesOf(profile) };
}
