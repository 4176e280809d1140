/**
 * A second SAML 2.0 identity provider for tests, built on samlify, a maintained SAML IdP/SP
 * library, as a real IdP product would be: samlify reads our SP metadata, parses and schema-validates
 * our real AuthnRequest (HTTP-Redirect binding; verifying its signature when the IdP wants signed
 * requests), and builds and signs the login Response with `idp.createLoginResponse` (HTTP-POST
 * binding; it signs the assertion because our metadata says WantAssertionsSigned="true").
 *
 * Beside server/src/test/saml-idp.ts (xml-crypto, hand-built XML, for the attacks on the XML itself
 * such as signature wrapping), this one proves that an assertion made and signed by an IdP library
 * the SP code never saw is accepted, and that the same library's answers are refused when they are
 * tampered with after signing, expired (the IdP's clock is behind), for another audience, or replayed.
 *
 * The only knobs are the ones samlify's login-response template callback (`customTagReplacement`)
 * offers an IdP operator: the attribute values, the audience and the IdP's clock. Everything else
 * (IDs, InResponseTo, Destination, Recipient, signature) comes from samlify.
 */
import { randomBytes } from 'node:crypto';
import * as xmllint from '@authenio/samlify-node-xmllint';
import * as samlify from 'samlify';
import type { IdentityProviderInstance, ServiceProviderInstance } from 'samlify';
import { makeKeyPair, type KeyPair } from './saml-idp';

// samlify refuses to parse anything without an XML schema validator; this one is xmllint compiled
// to JavaScript with emscripten (no Java, no native build), checking the SAML 2.0 XSDs.
samlify.setSchemaValidator({ validate: (xml: string) => xmllint.validate(xml) });

const { Constants, SamlLib } = samlify;
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const PASSWORD_CONTEXT = 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';

/** Our AuthnRequest as samlify parsed it, with the SP (from our metadata) it came from. */
export interface SamlifyRequest {
  sp: ServiceProviderInstance;
  id: string;
  issuer: string;
  acsUrl: string;
  destination: string;
  relayState: string | undefined;
}

/** What the IdP asserts about the signed-in user, and the few settings of an answer. */
export interface SamlifyAnswer {
  email: string;
  name?: string;
  groups?: string[];
  /** The Audience of the assertion; our SP entity id (from the metadata) by default. */
  audience?: string;
  /** How far the IdP's clock is off (negative: behind); the validity window follows it. */
  clockOffsetMs?: number;
}

export interface SamlifyIdp {
  entityId: string;
  ssoUrl: string;
  keys: KeyPair;
  idp: IdentityProviderInstance;
  /** samlify's own metadata of this IdP, for the SSO configuration. */
  metadata(): string;
  /** Parses (and, when the IdP wants signed requests, verifies) the AuthnRequest of an HTTP-Redirect URL. */
  readRequest(redirectUrl: string, spMetadata: string): Promise<SamlifyRequest>;
  /** A signed, base64 SAMLResponse (HTTP-POST binding) answering `request`. */
  answer(request: SamlifyRequest, user: SamlifyAnswer): Promise<string>;
}

export function createSamlifyIdp(options: { entityId?: string; ssoUrl?: string; keys?: KeyPair; wantAuthnRequestsSigned?: boolean } = {}): SamlifyIdp {
  const entityId = options.entityId ?? `https://samlify-idp.example.test/${randomBytes(4).toString('hex')}`;
  const ssoUrl = options.ssoUrl ?? 'https://samlify-idp.example.test/sso';
  const keys = options.keys ?? makeKeyPair('samlify-idp');
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    privateKey: keys.key,
    signingCert: keys.cert,
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    wantAuthnRequestsSigned: options.wantAuthnRequestsSigned ?? false,
    nameIDFormat: [EMAIL_FORMAT],
    singleSignOnService: [
      { Binding: Constants.namespace.binding.redirect, Location: ssoUrl },
      { Binding: Constants.namespace.binding.post, Location: ssoUrl },
    ],
    singleLogoutService: [{ Binding: Constants.namespace.binding.redirect, Location: `${ssoUrl}/logout` }],
  });

  /**
   * samlify's login-response template callback: the library's default Response template with an
   * AuthnStatement and a (multi-valued) AttributeStatement, every value put in by samlify's own
   * escaping `replaceTagsByValue`.
   */
  function template(request: SamlifyRequest, user: SamlifyAnswer) {
    return (xml: string) => {
      const now = Date.now() + (user.clockOffsetMs ?? 0);
      const iso = (ms: number) => new Date(ms).toISOString();
      const acs = request.sp.entityMeta.getAssertionConsumerService('post');
      const acsUrl = Array.isArray(acs) ? acs[0] : acs;
      if (!acsUrl) throw new Error('the SP metadata names no HTTP-POST AssertionConsumerService');
      const values: Record<string, string> = { attrEmail: user.email, attrName: user.name ?? 'Jane Doe' };
      (user.groups ?? []).forEach((g, i) => (values[`attrGroup${i}`] = g));
      const attribute = (name: string, tags: string[]) =>
        `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
        tags.map((t) => `<saml:AttributeValue xsi:type="xs:string">{${t}}</saml:AttributeValue>`).join('') +
        `</saml:Attribute>`;
      const groupTags = Object.keys(values).filter((k) => k.startsWith('attrGroup'));
      const statements = xml
        .replace('{AuthnStatement}', `<saml:AuthnStatement AuthnInstant="{IssueInstant}" SessionIndex="{SessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>${PASSWORD_CONTEXT}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`)
        .replace(
          '{AttributeStatement}',
          `<saml:AttributeStatement>${attribute('email', ['attrEmail'])}${attribute('name', ['attrName'])}${groupTags.length ? attribute('groups', groupTags) : ''}</saml:AttributeStatement>`,
        );
      const id = idp.entitySetting.generateID!();
      const context = SamlLib.replaceTagsByValue(statements, {
        ID: id,
        AssertionID: idp.entitySetting.generateID!(),
        Destination: acsUrl,
        Audience: user.audience ?? request.sp.entityMeta.getEntityID(),
        SubjectRecipient: acsUrl,
        Issuer: idp.entityMeta.getEntityID(),
        IssueInstant: iso(now),
        StatusCode: Constants.StatusCode.Success,
        ConditionsNotBefore: iso(now),
        ConditionsNotOnOrAfter: iso(now + 5 * 60_000),
        SubjectConfirmationDataNotOnOrAfter: iso(now + 5 * 60_000),
        NameIDFormat: EMAIL_FORMAT,
        NameID: user.email,
        InResponseTo: request.id,
        SessionIndex: idp.entitySetting.generateID!(),
        ...values,
      });
      return { id, context };
    };
  }

  return {
    entityId,
    ssoUrl,
    keys,
    idp,

    metadata: () => idp.getMetadata(),

    async readRequest(redirectUrl, spMetadata) {
      const sp = samlify.ServiceProvider({ metadata: spMetadata });
      const url = new URL(redirectUrl);
      // The signed octet string of the HTTP-Redirect binding: the query as sent, without Signature.
      const octetString = url.search.slice(1).split('&').filter((p) => !p.startsWith('Signature=')).join('&');
      const { extract } = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(url.searchParams), octetString });
      const request = extract.request as Record<string, string>;
      return {
        sp,
        id: request.id!,
        issuer: String(extract.issuer),
        acsUrl: request.assertionConsumerServiceUrl!,
        destination: request.destination!,
        relayState: url.searchParams.get('RelayState') ?? undefined,
      };
    },

    async answer(request, user) {
      const { context } = await idp.createLoginResponse(request.sp, { extract: { request: { id: request.id } } }, 'post', { email: user.email }, { customTagReplacement: template(request, user) });
      return context;
    },
  };
}
