/**
 * Enterprise SSO wire schemas (seed 000 sections 4.2, 7.2; seed 001 section 3 "SSO configuration"):
 * the sign-in calls of the login box and the tenant administration the admin portal's SSO section uses.
 */
import { z } from 'zod';

export const SsoTypes = ['saml', 'oidc'] as const;
export type SsoType = (typeof SsoTypes)[number];

const email = z.string().trim().toLowerCase().max(320);
const id = z.string().trim().min(1).max(64);
const roleIds = z.array(id).max(100);

/** POST auth v2 user/sso/prelogin (seed 000 section 7.2): is there SSO for this identifier? */
export const SsoPreLoginRequest = z
  .object({ email: email.optional(), username: z.string().trim().max(320).optional(), tenantId: id.optional() })
  .refine((b) => b.email || b.username, { message: 'email or username is required' });
export type SsoPreLoginRequest = z.input<typeof SsoPreLoginRequest>;

/**
 * SSO applies: the IdP's sign-in address and the protocol. No SSO is an answer too, not an error
 * (every identifier without SSO asks, so a 404 would be a console error on every sign-in): both null.
 */
export const SsoPreLoginResponse = z.object({ address: z.string().nullable(), type: z.enum(SsoTypes).nullable() });
export type SsoPreLoginResponse = z.infer<typeof SsoPreLoginResponse>;
/** A lookup that found SSO. */
export type SsoFound = { address: string; type: SsoType };

/**
 * POST auth v1 user/saml/prelogin and user/oidc/prelogin: starts a sign-in for the email's SSO.
 * `redirectUri` is the login box's samlCallbackUrl / oidcRedirectUrl (absolute, on an allowed origin).
 */
export const SsoStartRequest = z.object({ email, tenantId: id.optional(), redirectUri: z.string().trim().min(1).max(2048) });
export type SsoStartRequest = z.input<typeof SsoStartRequest>;

/** Where to send the browser: the IdP's URL with the AuthnRequest or the authorization request. */
export const SsoStartResponse = z.object({ address: z.string() });
export type SsoStartResponse = z.infer<typeof SsoStartResponse>;

/** POST auth v1 user/saml/postlogin: the one-time code the ACS gave the samlCallbackUrl route. */
export const SamlPostLoginRequest = z.object({ code: z.string().trim().min(1).max(256) });
export type SamlPostLoginRequest = z.infer<typeof SamlPostLoginRequest>;

/** POST auth v1 user/oidc/postlogin (seed 000 section 7.2): code, redirectUri, RelayState (the state), and the RFC 9207 iss. */
export const OidcPostLoginRequest = z.object({
  code: z.string().min(1).max(4096),
  redirectUri: z.string().trim().min(1).max(2048),
  RelayState: z.string().min(1).max(512),
  iss: z.string().max(2048).optional(),
});
export type OidcPostLoginRequest = z.infer<typeof OidcPostLoginRequest>;

// ---- tenant administration -----------------------------------------------------------------

const OidcSettings = z.object({
  issuer: z.string().trim().url().max(2048),
  clientId: z.string().trim().min(1).max(512),
  clientSecret: z.string().min(1).max(4096),
  /** Space-separated; openid is always asked for. Default 'openid email profile'. */
  scopes: z.string().trim().max(512).optional(),
});

/** POST configurations: a new identity provider for the caller's tenant. */
export const CreateSsoConfigurationRequest = z
  .object({ type: z.enum(SsoTypes), enabled: z.boolean().optional(), signRequest: z.boolean().optional(), oidc: OidcSettings.optional() })
  .refine((b) => b.type !== 'oidc' || b.oidc, { message: 'oidc: issuer, clientId and clientSecret are required for type oidc', path: ['oidc'] });
export type CreateSsoConfigurationRequest = z.infer<typeof CreateSsoConfigurationRequest>;

/** PATCH configurations/{configId}. */
export const UpdateSsoConfigurationRequest = z.object({
  enabled: z.boolean().optional(),
  signRequest: z.boolean().optional(),
  oidc: OidcSettings.partial().optional(),
});
export type UpdateSsoConfigurationRequest = z.infer<typeof UpdateSsoConfigurationRequest>;

/** PUT configurations/{configId}/metadata: the IdP's SAML metadata XML (an uploaded file's text). */
export const SamlMetadataFileRequest = z.object({ metadata: z.string().min(1).max(512 * 1024) });
/** PUT configurations/{configId}/metadata/url: fetched by the server (https). */
export const SamlMetadataUrlRequest = z.object({ url: z.string().trim().url().max(2048) });

const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  // Labels of 1-63 letters, digits and inner hyphens, at least two of them. Written without
  // lookarounds so that the OpenAPI document's pattern is one generators and validators can use.
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/, 'must be a domain name such as example.com');

/** POST configurations/{configId}/domains. */
export const SsoDomainRequest = z.object({ domain: domainName });

/**
 * PUT configurations/{configId}/saml: the seed's SAML config (section 3) saved by hand, with its rules
 * (section 5): saved only when a domain is set (the configuration's first domain); changing the
 * domain clears the SSO endpoint, the certificate and signRequest, so a change of domain is sent
 * alone. `publicCertificate` is PEM (or its base64 body).
 */
export const SamlConfigurationRequest = z.object({
  domain: domainName.optional(),
  idpEntityId: z.string().trim().max(2048).optional(),
  ssoEndpoint: z.string().trim().min(1).max(2048).optional(),
  publicCertificate: z.string().trim().min(1).max(16 * 1024).optional(),
  signRequest: z.boolean().optional(),
});
export type SamlConfigurationRequest = z.infer<typeof SamlConfigurationRequest>;

/** PUT configurations/{configId}/roles: the default roles of users signing in through it. */
export const SsoRolesRequest = z.object({ roleIds });

/** PUT configurations/{configId}/groups: replaces the group-to-role mappings. */
export const SsoGroupsRequest = z.object({
  groups: z.array(z.object({ group: z.string().trim().min(1).max(256), roleIds })).max(200),
});

export const SsoDomain = z.object({
  id: z.string(),
  domain: z.string(),
  validated: z.boolean(),
  /** The TXT record to publish on the domain (seed 001 generatedVerification). */
  generatedVerification: z.string(),
});
export type SsoDomain = z.infer<typeof SsoDomain>;

export const SsoGroupMapping = z.object({ id: z.string(), group: z.string(), roleIds: z.array(z.string()) });

/** Seed 001 section 3 "SSO configuration" and "SAML config" fields; secrets are never returned. */
export const SsoConfiguration = z.object({
  id: z.string(),
  type: z.enum(SsoTypes),
  enabled: z.boolean(),
  domains: z.array(SsoDomain),
  roleIds: z.array(z.string()),
  groups: z.array(SsoGroupMapping),
  // SAML: what the IdP admin needs from us, and what we read from the IdP's metadata
  acsUrl: z.string().optional(),
  spEntityId: z.string().optional(),
  spMetadataUrl: z.string().optional(),
  /** The certificate of our signed AuthnRequests (PEM), when the server has an SP signing key. */
  spCertificate: z.string().nullable().optional(),
  signRequest: z.boolean(),
  idpEntityId: z.string().nullable().optional(),
  ssoEndpoint: z.string().nullable().optional(),
  /** The IdP's first signing certificate (PEM). */
  publicCertificate: z.string().nullable().optional(),
  /** When that certificate expires (ISO); the portal flags it 30 days ahead. */
  publicCertificateExpiresAt: z.string().nullable().optional(),
  metadataUrl: z.string().nullable().optional(),
  // OIDC
  oidc: z.object({ issuer: z.string(), clientId: z.string(), scopes: z.string(), hasClientSecret: z.boolean() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SsoConfiguration = z.infer<typeof SsoConfiguration>;

export const SsoConfigurationParam = z.object({ configId: id });
export const SsoDomainParam = z.object({ configId: id, domainId: id });

// ---- "Test connection" -----------------------------------------------------------------------

export const SsoTestParam = z.object({ configId: id, testId: id });

/**
 * POST configurations/{configId}/test: the IdP address to open in a new window, and until when the
 * test waits for its answer: `expiresAt` by the server's clock, `expiresInMs` from this answer (for
 * a client whose clock differs from the server's: its deadline is its own time at the answer plus it).
 */
export const SsoTestStartResponse = z.object({ testId: z.string(), address: z.string(), expiresAt: z.string(), expiresInMs: z.number().int().nonnegative() });
/**
 * POST configurations/{configId}/test's body (optional): for an OIDC configuration, `redirectUri` is
 * the login box's oidcRedirectUrl (absolute, on an allowed origin): the redirect URI real sign-ins
 * use, the one registered at the IdP. A SAML test needs no body (its answer goes to our ACS).
 */
export const SsoTestStartRequest = z.object({ redirectUri: z.string().trim().min(1).max(2048).optional() });
export type SsoTestStartRequest = z.infer<typeof SsoTestStartRequest>;
/** oidc/postlogin's answer when its state names a connection test: checked as a sign-in, reported to the admin portal, nobody signed in. */
export const SsoTestCompleteResponse = z.object({ connectionTest: z.literal('complete') });
export type SsoTestCompleteResponse = z.infer<typeof SsoTestCompleteResponse>;
export type SsoTestStartResponse = z.infer<typeof SsoTestStartResponse>;

/**
 * What a test sign-in found that would refuse or weaken real sign-ins. Errors refuse them (no email;
 * an email the OIDC IdP says is not verified; an email outside the validated domains; an expired IdP
 * certificate); warnings do not.
 */
export const SsoTestProblemCodes = ['noEmail', 'emailNotVerified', 'emailDomainNotValidated', 'missingAttributes', 'unknownGroups', 'certificateExpiring', 'certificateExpired'] as const;
export type SsoTestProblemCode = (typeof SsoTestProblemCodes)[number];
export const SsoTestProblem = z.object({
  code: z.enum(SsoTestProblemCodes),
  severity: z.enum(['error', 'warning']),
  /** What the problem names: the email's domain, the missing attributes, the unmapped groups, the certificate's expiry (ISO). */
  values: z.array(z.string()),
});
export type SsoTestProblem = z.infer<typeof SsoTestProblem>;

/**
 * GET configurations/{configId}/test/{testId}: `pending` until the IdP answered; then, once, the
 * report: `passed` (the response passed every check of a real sign-in) with what it carried, or
 * `failed` with the reason it was refused (signature, audience, time, InResponseTo...).
 */
export const SsoTestReport = z.object({
  testId: z.string(),
  status: z.enum(['pending', 'passed', 'failed']),
  expiresAt: z.string(),
  /** failed: why the response was refused. */
  error: z.string().nullable(),
  /** The SAML NameID, or the OIDC `sub`. */
  subject: z.string().nullable(),
  email: z.string().nullable(),
  name: z.string().nullable(),
  /** Every attribute of the assertion (OIDC: every claim of the ID token and UserInfo), with its values. */
  attributes: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
  groups: z.array(z.string()),
  /** The group mappings these groups hit, with their roles. */
  roleMappings: z.array(z.object({ group: z.string(), roleIds: z.array(z.string()) })),
  /** The configuration's default roles everyone signing in gets. */
  defaultRoleIds: z.array(z.string()),
  problems: z.array(SsoTestProblem),
});
export type SsoTestReport = z.infer<typeof SsoTestReport>;
