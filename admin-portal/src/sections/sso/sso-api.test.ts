import { describe, expect, it } from 'vitest';
import type { GatehouseApi } from '../../contract';
import { certificateState } from './certificate';
import { guessProvider, oidcRedirectUri } from './providers';
import { createSsoApi, fieldErrors, requireSamlConfiguration, SAML_CONFIGURATION_MISSING } from './sso-api';

const noCalls = { request: async () => { throw new Error('no call expected'); } } as unknown as GatehouseApi;

describe('SSO section rules', () => {
  it("raises seed 001's 'IllegalState: samlConfiguration is not defined' for a SAML call without a SAML configuration, before any request", () => {
    expect(SAML_CONFIGURATION_MISSING).toBe('IllegalState: samlConfiguration is not defined');
    expect(() => requireSamlConfiguration(null)).toThrow(SAML_CONFIGURATION_MISSING);
    const sso = createSsoApi(noCalls);
    expect(() => sso.saveSaml(null, { domain: 'acme.com' })).toThrow(SAML_CONFIGURATION_MISSING);
    expect(() => sso.uploadMetadata(null, '<x/>')).toThrow(SAML_CONFIGURATION_MISSING);
    expect(() => sso.validateDomain(null, 'd1')).toThrow(SAML_CONFIGURATION_MISSING);
  });

  it("puts the server's message under the field it names, and keeps the rest", () => {
    const fields = ['domain', 'ssoEndpoint', 'oidc.issuer'] as const;
    expect(fieldErrors({ message: 'domain: a SAML configuration is saved only when a domain is set' }, fields)).toEqual({ fields: { domain: 'a SAML configuration is saved only when a domain is set' }, other: null });
    expect(fieldErrors({ message: 'ssoEndpoint must be an http(s) URL' }, fields)).toEqual({ fields: { ssoEndpoint: 'ssoEndpoint must be an http(s) URL' }, other: null });
    expect(fieldErrors({ message: 'oidc.issuer must be an https URL' }, fields).fields).toEqual({ 'oidc.issuer': 'oidc.issuer must be an https URL' });
    expect(fieldErrors({ message: 'The SAML metadata URL answered 404' }, fields)).toEqual({ fields: {}, other: 'The SAML metadata URL answered 404' });
  });

  it('recognises the IdP from its sign-in URL or entity id, else the generic guide of the protocol', () => {
    const saml = (ssoEndpoint: string | null, idpEntityId: string | null = null) => guessProvider({ type: 'saml', ssoEndpoint, idpEntityId });
    expect(saml('https://acme.okta.com/app/acme/exk1/sso/saml')).toBe('okta');
    expect(saml('https://login.microsoftonline.com/0000/saml2')).toBe('entra');
    expect(saml('https://accounts.google.com/o/saml2/idp?idpid=C0')).toBe('google');
    expect(saml('https://acme.onelogin.com/trust/saml2/http-redirect/sso/1')).toBe('onelogin');
    expect(saml('https://sso.jumpcloud.com/saml2/acme')).toBe('jumpcloud');
    expect(saml('https://fs.acme.com/adfs/ls/')).toBe('adfs');
    expect(saml(null, 'http://www.okta.com/exk1')).toBe('okta');
    expect(saml('https://okta.com.evil.example/sso')).toBe('saml');
    expect(saml(null)).toBe('saml');
    expect(guessProvider({ type: 'oidc', ssoEndpoint: null, idpEntityId: null })).toBe('oidc');
    expect(oidcRedirectUri('https://app.example.com/')).toBe('https://app.example.com/account/oidc/callback');
  });

  it('flags a certificate 30 days before it expires', () => {
    const now = Date.parse('2026-11-01T00:00:00Z');
    expect(certificateState(null, now)).toEqual({ kind: 'none' });
    expect(certificateState('2026-12-01T00:00:00Z', now).kind).toBe('expiring');
    expect(certificateState('2026-12-01T00:00:01Z', now).kind).toBe('valid');
    expect(certificateState('2026-11-02T00:00:00Z', now)).toMatchObject({ kind: 'expiring', days: 1 });
    expect(certificateState('2026-10-31T00:00:00Z', now).kind).toBe('expired');
  });
});
