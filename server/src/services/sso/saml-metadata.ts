/**
 * SAML metadata: reading an IdP's (entity id, sign-in URL, signing certificates) and writing ours,
 * the service provider's, for the IdP admin.
 */
import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { ErrorCodes } from '@gatehouse/shared/wire';
import { AppError } from '../../errors';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
/** The binding our AuthnRequests use (a browser redirect with the deflated request in the query). */
export const HTTP_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** What sign-in needs from an IdP's metadata. */
export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  /** Base64 DER of each signing certificate. */
  certificates: string[];
}

const invalid = (why: string) => new AppError(ErrorCodes.ssoInvalidMetadata, 400, `The SAML metadata is not usable: ${why}`);

function children(parent: Element, ns: string, name: string): Element[] {
  const out: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === name) out.push(node as Element);
  }
  return out;
}

function descendants(parent: Element, ns: string, name: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(ns, name) as unknown as ArrayLike<Element>);
}

/** Parses IdP metadata XML: the first EntityDescriptor with an IDPSSODescriptor for SAML 2.0. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  // No DTDs at all: metadata never needs one, and entity tricks (billion laughs) start there.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw invalid('a DOCTYPE is not allowed');
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: (level: string, message: unknown) => {
      if (level !== 'warning') errors.push(String(message));
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length || !doc?.documentElement) throw invalid('it is not well-formed XML');
  const root = doc.documentElement as unknown as Element;
  const entities = root.namespaceURI === MD && root.localName === 'EntityDescriptor' ? [root] : descendants(root, MD, 'EntityDescriptor');
  for (const entity of entities) {
    const idp = children(entity, MD, 'IDPSSODescriptor').find((d) => (d.getAttribute('protocolSupportEnumeration') ?? '').includes(PROTOCOL));
    if (!idp) continue;
    const entityId = entity.getAttribute('entityID')?.trim();
    if (!entityId) throw invalid('the EntityDescriptor has no entityID');
    const sso = children(idp, MD, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === HTTP_REDIRECT_BINDING);
    const ssoUrl = sso?.getAttribute('Location')?.trim();
    if (!ssoUrl) throw invalid('the IdP offers no SingleSignOnService with the HTTP-Redirect binding');
    const certificates: string[] = [];
    for (const key of children(idp, MD, 'KeyDescriptor')) {
      const use = key.getAttribute('use');
      if (use && use !== 'signing') continue;
      for (const cert of descendants(key, DS, 'X509Certificate')) {
        const b64 = (cert.textContent ?? '').replace(/\s+/g, '');
        if (b64 && !certificates.includes(b64)) certificates.push(checkCertificate(b64));
      }
    }
    if (certificates.length === 0) throw invalid('the IdP publishes no signing certificate');
    return { entityId, ssoUrl: checkSsoUrl(ssoUrl), certificates };
  }
  throw invalid('no EntityDescriptor with a SAML 2.0 IDPSSODescriptor was found');
}

function checkCertificate(b64: string): string {
  try {
    new X509Certificate(Buffer.from(b64, 'base64'));
    return b64;
  } catch {
    throw invalid('a signing certificate could not be read');
  }
}

function checkSsoUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('the SingleSignOnService Location is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('the SingleSignOnService Location must be an http(s) URL');
  return url.href;
}

/**
 * A certificate entered by hand (PEM, or its base64 body alone) as base64 DER; a 400 naming `field`
 * when it is not one X.509 certificate.
 */
export function readCertificate(text: string, field: string): string {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  const bad = () => new AppError(ErrorCodes.validation, 400, `${field} must be an X.509 certificate (PEM)`, { field });
  if (!body || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw bad();
  try {
    new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    throw bad();
  }
  return body;
}

/** When a base64 DER certificate stops being valid (ISO), or null when it cannot be read. */
export function certificateExpiry(b64: string): string | null {
  try {
    return new Date(new X509Certificate(Buffer.from(b64, 'base64')).validTo).toISOString();
  } catch {
    return null;
  }
}

/** PEM text of a base64 DER certificate. */
export function certificatePem(b64: string): string {
  return `-----BEGIN CERTIFICATE-----\n${b64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** Our SP metadata for one configuration: entity id, ACS (HTTP-POST) and, when we sign requests, our certificate. */
export async function serviceProviderMetadata(input: { spEntityId: string; acsUrl: string; signing: { key: string; cert: string } | null }): Promise<string> {
  // node-saml loads with the first metadata request or SAML sign-in, not at start.
  const { generateServiceProviderMetadata } = await import('@node-saml/node-saml');
  return generateServiceProviderMetadata({
    issuer: input.spEntityId,
    callbackUrl: input.acsUrl,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    wantAssertionsSigned: true,
    ...(input.signing ? { privateKey: input.signing.key, publicCerts: input.signing.cert } : {}),
  });
}
