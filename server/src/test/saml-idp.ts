/**
 * A SAML 2.0 identity provider for tests: it reads our AuthnRequests (HTTP-Redirect binding) and
 * answers with Responses whose assertions it really signs, with xml-crypto (RSA-SHA256, exclusive
 * c14n, enveloped), using its own RSA key and self-signed certificate made by openssl. It also
 * publishes its metadata. Every knob of the answer can be turned to build the attacks the service
 * provider must refuse: tampered attributes, signature wrapping, foreign keys, stale or early
 * validity windows, another audience or recipient, unsolicited or unknown InResponseTo.
 *
 * Why xml-crypto rather than samlify as the IdP: it is what node-saml itself verifies with, it is
 * already a dependency, and building the XML by hand gives exact control over every element an
 * attack changes, which an IdP library's happy path does not offer.
 */
import { execFileSync } from 'node:child_process';
import { createVerify, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

export interface KeyPair {
  key: string;
  cert: string;
}

/** An RSA-2048 key and a self-signed certificate for it (openssl, as an IdP admin would make them). */
export function makeKeyPair(commonName = 'test-idp'): KeyPair {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-saml-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${commonName}`, '-keyout', key, '-out', cert], { stdio: 'ignore' });
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const certBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
const iso = (ms: number) => new Date(ms).toISOString();
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const id = () => `_${randomBytes(16).toString('hex')}`;

/** What an AuthnRequest asked for. */
export interface AuthnRequest {
  id: string;
  acsUrl: string;
  issuer: string;
  relayState: string | null;
  destination: string | null;
  /** The raw query parameters (SigAlg, Signature when signed). */
  params: URLSearchParams;
  /** The signed query string (HTTP-Redirect binding: SAMLRequest, RelayState, SigAlg as sent). */
  signedQuery: string | null;
}

/** Every part of an answer a test may set; the defaults make a valid answer to `request`. */
export interface AnswerOptions {
  email: string;
  name?: string;
  groups?: string[];
  /** undefined: answer the request; null: unsolicited (no InResponseTo anywhere). */
  inResponseTo?: string | null;
  audience?: string;
  recipient?: string;
  destination?: string | null;
  notBefore?: number;
  notOnOrAfter?: number;
  assertionId?: string;
  issuer?: string;
  /** 'assertion' (default), 'response' or 'both'. */
  sign?: 'assertion' | 'response' | 'both';
  /** Sign with this key instead of the IdP's (a forged answer). */
  signingKey?: string;
  /** After signing, change the email attribute's value (tampering). */
  tamperEmail?: string;
  /** Signature wrapping: a forged assertion for this email in front, the signed one hidden in Extensions. */
  wrapAs?: string;
}

export interface TestSamlIdp {
  entityId: string;
  ssoUrl: string;
  keys: KeyPair;
  metadata(): string;
  /** Decodes the AuthnRequest of an HTTP-Redirect URL. */
  readRequest(redirectUrl: string): AuthnRequest;
  /** A base64 SAMLResponse answering `request` (see AnswerOptions). */
  answer(request: AuthnRequest, spEntityId: string, options: AnswerOptions): string;
}

export function createTestSamlIdp(options: { entityId?: string; ssoUrl?: string; keys?: KeyPair } = {}): TestSamlIdp {
  const entityId = options.entityId ?? `https://idp.example.test/${randomBytes(4).toString('hex')}`;
  const ssoUrl = options.ssoUrl ?? 'https://idp.example.test/sso';
  const keys = options.keys ?? makeKeyPair();

  function sign(xml: string, element: 'Assertion' | 'Response', key: string): string {
    const sig = new SignedXml({
      privateKey: key,
      publicCert: keys.cert,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    sig.addReference({
      xpath: `//*[local-name(.)='${element}']`,
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    });
    // The Signature follows the element's own Issuer, as the schema requires.
    sig.computeSignature(xml, { location: { reference: `//*[local-name(.)='${element}']/*[local-name(.)='Issuer']`, action: 'after' } });
    return sig.getSignedXml();
  }

  function assertionXml(request: AuthnRequest, spEntityId: string, o: AnswerOptions, now: number, assertionId: string): string {
    const inResponseTo = o.inResponseTo === undefined ? request.id : o.inResponseTo;
    const irt = inResponseTo ? ` InResponseTo="${xmlEscape(inResponseTo)}"` : '';
    const notBefore = o.notBefore ?? now - 60_000;
    const notOnOrAfter = o.notOnOrAfter ?? now + 5 * 60_000;
    const attributes = [
      `<saml:Attribute Name="email"><saml:AttributeValue>${xmlEscape(o.email)}</saml:AttributeValue></saml:Attribute>`,
      `<saml:Attribute Name="name"><saml:AttributeValue>${xmlEscape(o.name ?? 'Jane Doe')}</saml:AttributeValue></saml:Attribute>`,
      ...(o.groups?.length ? [`<saml:Attribute Name="groups">${o.groups.map((g) => `<saml:AttributeValue>${xmlEscape(g)}</saml:AttributeValue>`).join('')}</saml:Attribute>`] : []),
    ].join('');
    return (
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
      `<saml:Issuer>${xmlEscape(o.issuer ?? entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${xmlEscape(o.email)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${xmlEscape(o.recipient ?? request.acsUrl)}"${irt}/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${xmlEscape(o.audience ?? spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${id()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` +
      `</saml:Assertion>`
    );
  }

  function responseXml(request: AuthnRequest, o: AnswerOptions, now: number, inner: string): string {
    const inResponseTo = o.inResponseTo === undefined ? request.id : o.inResponseTo;
    const destination = o.destination === undefined ? request.acsUrl : o.destination;
    return (
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id()}" Version="2.0" IssueInstant="${iso(now)}"` +
      `${destination ? ` Destination="${xmlEscape(destination)}"` : ''}${inResponseTo ? ` InResponseTo="${xmlEscape(inResponseTo)}"` : ''}>` +
      `<saml:Issuer>${xmlEscape(o.issuer ?? entityId)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      inner +
      `</samlp:Response>`
    );
  }

  return {
    entityId,
    ssoUrl,
    keys,

    metadata() {
      return (
        `<?xml version="1.0"?>` +
        `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${xmlEscape(entityId)}">` +
        `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
        `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(keys.cert)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
        `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>` +
        `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${xmlEscape(ssoUrl)}"/>` +
        `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${xmlEscape(ssoUrl)}"/>` +
        `</md:IDPSSODescriptor></md:EntityDescriptor>`
      );
    },

    readRequest(redirectUrl) {
      const url = new URL(redirectUrl);
      const encoded = url.searchParams.get('SAMLRequest');
      if (!encoded) throw new Error(`no SAMLRequest in ${redirectUrl}`);
      const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
      const attr = (name: string) => new RegExp(`<samlp:AuthnRequest[^>]*\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? null;
      const raw = url.search.slice(1);
      const signedQuery = url.searchParams.has('Signature') ? raw.split('&').filter((p) => !p.startsWith('Signature=')).join('&') : null;
      return {
        id: attr('ID')!,
        acsUrl: attr('AssertionConsumerServiceURL')!,
        destination: attr('Destination'),
        issuer: /<saml:Issuer[^>]*>([^<]*)<\/saml:Issuer>/.exec(xml)?.[1] ?? '',
        relayState: url.searchParams.get('RelayState'),
        params: url.searchParams,
        signedQuery,
      };
    },

    answer(request, spEntityId, o) {
      const now = Date.now();
      const key = o.signingKey ?? keys.key;
      const where = o.sign ?? 'assertion';
      const plain = assertionXml(request, spEntityId, o, now, o.assertionId ?? id());
      const signedAssertion = () => sign(plain, 'Assertion', key);
      let xml: string;
      if (o.wrapAs) {
        // XSW: the signed original hides in Extensions; a forged assertion carrying a copy of the
        // original's Signature (whose Reference points at the hidden original) comes first.
        const original = signedAssertion();
        const signature = /<Signature[\s\S]*<\/Signature>/.exec(original)![0];
        const forged = assertionXml(request, spEntityId, { ...o, email: o.wrapAs }, now, id()).replace(/(<saml:Issuer>[^<]*<\/saml:Issuer>)/, `$1${signature}`);
        xml = responseXml(request, o, now, `<samlp:Extensions>${original}</samlp:Extensions>${forged}`);
      } else {
        xml = responseXml(request, o, now, where === 'response' ? plain : signedAssertion());
        if (where !== 'assertion') xml = sign(xml, 'Response', key);
      }
      if (o.tamperEmail) xml = xml.replace(`<saml:AttributeValue>${xmlEscape(o.email)}</saml:AttributeValue>`, `<saml:AttributeValue>${xmlEscape(o.tamperEmail)}</saml:AttributeValue>`);
      return Buffer.from(xml, 'utf8').toString('base64');
    },
  };
}

/** Checks an HTTP-Redirect binding signature (RSA-SHA256) over the signed query with a PEM certificate. */
export function verifyRedirectSignature(request: AuthnRequest, certPem: string): boolean {
  const signature = request.params.get('Signature');
  if (!signature || !request.signedQuery) return false;
  return createVerify('RSA-SHA256').update(request.signedQuery).verify(certPem, signature, 'base64');
}
