import { readFileSync } from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import path from 'node:path';
import { LOGIN_STRATEGIES, MfaStrategies, type LoginStrategy, type MfaStrategy } from '@gatehouse/shared/wire';
import { passwordlessTypeOf, phoneSignUpOpen, type SignUpStrategies, type SignUpStrategy } from '@gatehouse/shared/wire';
import { socialLoginConfig, type SocialLoginConfig } from './services/social/config';
import { loadClientsFile, type OAuthClient } from './services/oauth/clients';

export type SigningAlg = 'ES256' | 'RS256';
export type SameSite = 'lax' | 'strict' | 'none';

/** Everything the server reads from its environment, validated once at start. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  publicOrigin: string;
  dataDir: string;
  databaseUrl: string | null;
  databaseSchema: string | null;
  clientId: string;
  allowedOrigins: string[];
  appUrl: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  activationTokenTtl: number;
  smtpUrl: string | null;
  mailFrom: string;
  /** Password recovery (seed 4.6): reset-link and SMS-code lifetimes in seconds. */
  resetPasswordTokenTtl: number;
  resetPasswordSmsCodeTtl: number;
  /** HTTP SMS provider; null keeps SMS in the dev outbox. */
  smsHttpUrl: string | null;
  smsHttpToken: string | null;
  dev: boolean;
  signingAlg: SigningAlg;
  keyEncryptionKey: Buffer | null;
  cookieSameSite: SameSite;
  cookieSecure: boolean;
  maxBodyBytes: number;
  cdnDir: string;
  demoDir: string;
  flags: Record<string, string>;
  password: {
    minLength: number;
    maxLength: number;
    allowPassphrases: boolean;
    minPhraseLength: number;
    minOptionalTestsToPass: number;
  };
  allowSignups: boolean;
  /** SIGNUP_EMAIL / SIGNUP_PHONE_NUMBER (seed 000 section 3): which sign-up fields exist and which are required. */
  signUpStrategies: SignUpStrategies;
  trustProxy: boolean;
  /** Default MFA policy of every tenant without its own row in mfa_policies. */
  mfa: { enforce: 'optional' | 'force'; rememberDeviceDays: number };
  /** MFA_STRATEGIES: the MFA methods users may enrol and use (SMS also needs a way to send SMS). */
  mfaStrategies: readonly MfaStrategy[];
  webauthn: WebauthnConfig;
  /** The vendor login policy (seed 000 section 1): how users sign in locally. */
  loginStrategy: LoginStrategy;
  rateLimits: Record<RateLimitBucket, RateLimitRule>;
  /** Lockout, rotation and breached-password policies (seed 000 sections 3, 4.2, 4.7). */
  passwordPolicies: PasswordPoliciesConfig;
  /** The reCAPTCHA v3 policy (seed 000 sections 7.2, 8); null when CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY are unset. */
  captcha: CaptchaConfig | null;
  /** Invitations (seed 000 section 4.4): link lifetime (s) and whether the email also carries a code. */
  invitation: { tokenTtl: number; strategy: 'link' | 'code' };
  /** Impersonation (seed 000 section 4.7): token and session lifetimes (s). */
  impersonation: { tokenTtl: number; sessionTtl: number };
  /** Whether admins may make users temporary (seed 001 section 4 "Temporary users"). */
  temporaryUsers: boolean;
  /** Social login (seed 000 sections 1, 7.2): the providers, sign-up by social login, state lifetime. */
  socialLogin: SocialLoginConfig;
  /** Enterprise SSO (SAML 2.0, OIDC): the SP signing key pair, DNS for domain validation, plain-http IdPs. */
  sso: SsoConfig;
  /** Hosted login: the OAuth clients of OAUTH_CLIENTS_FILE (the CLI's are in the database). */
  oauthClients: OAuthClient[];
}

/** Enterprise SSO settings; the IdPs themselves are configured per tenant through the API. */
export interface SsoConfig {
  /** PEM private key and certificate that sign SAML AuthnRequests of configurations with signRequest on. */
  spSigningKey: string | null;
  spSigningCert: string | null;
  /** Resolvers for domain-validation TXT lookups (`ip` or `ip:port`); empty: the system's. */
  dnsServers: string[];
  /** Dev mode only: IdP metadata URLs and OIDC issuers on a loopback host may be plain http. */
  allowHttpLoopback: boolean;
}

/** The vendor's password policies; 0 turns lockout or rotation off. */
export interface PasswordPoliciesConfig {
  lockoutMaxAttempts: number;
  unlockTokenTtl: number;
  expiresInDays: number;
  notificationDays: number;
  rejectBreached: boolean;
}

/** reCAPTCHA v3: the keys, the accepted score, where tokens are verified and the script the box loads. */
export interface CaptchaConfig {
  siteKey: string;
  /** Sent only to verifyUrl; never served, logged or put in an error. */
  secretKey: string;
  minScore: number;
  verifyUrl: string;
  scriptUrl: string;
  /** Lowercased emails whose calls skip the check (e.g. accounts of automated tests). */
  ignoredEmails: string[];
  verifyTimeoutMs: number;
}

/** Passkeys: the relying party and the origins a ceremony may come from. */
export interface WebauthnConfig {
  rpId: string;
  rpName: string;
  /** Allowed origins whose host is the RP ID or below it: what clientDataJSON.origin may be. */
  origins: string[];
  /** Whether the login policy has passkeys as an active secondary strategy (drives the prompt, seed 4.2). */
  passkeysPrompt: boolean;
}

/** At most `limit` hits per fixed window of `windowSeconds`. */
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

/** Every rate-limit bucket: the variable that sets it, its default (`<count>/<seconds>`) and what it counts. */
export const RATE_LIMIT_BUCKETS = {
  loginPerIp: { env: 'RATE_LIMIT_LOGIN_PER_IP', default: '30/600', counts: 'Sign-in attempts per client IP' },
  loginFailuresPerAccount: {
    env: 'RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT',
    default: '10/900',
    counts: 'Failed sign-ins (wrong password or unknown user) per account, or per typed identifier when no account matches; after that many failures every further attempt, even with the right password, gets 429 until the window ends; a successful sign-in clears the count',
  },
  signUpPerIp: { env: 'RATE_LIMIT_SIGNUP_PER_IP', default: '20/3600', counts: 'Sign-ups per client IP' },
  activationPerIp: { env: 'RATE_LIMIT_ACTIVATION_PER_IP', default: '60/600', counts: 'Activation calls (strategy and activate) per client IP' },
  resendPerIp: { env: 'RATE_LIMIT_RESEND_PER_IP', default: '10/3600', counts: 'Resend-activation calls per client IP' },
  resendPerEmail: {
    env: 'RATE_LIMIT_RESEND_PER_EMAIL',
    default: '3/3600',
    counts: 'Resend-activation calls per target email; over it the call still answers 200 but sends nothing',
  },
  refreshPerIp: { env: 'RATE_LIMIT_REFRESH_PER_IP', default: '120/60', counts: 'Token refreshes per client IP' },
  passwordResetPerIp: { env: 'RATE_LIMIT_PASSWORD_RESET_PER_IP', default: '20/3600', counts: 'Password-recovery requests (email or SMS) per client IP' },
  passwordResetPerIdentifier: {
    env: 'RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER',
    default: '3/3600',
    counts: 'Password-recovery requests per typed email, username or phone number; over it the call still answers 200 but sends nothing',
  },
  passwordResetVerifyPerIp: { env: 'RATE_LIMIT_PASSWORD_RESET_VERIFY_PER_IP', default: '60/600', counts: 'Reset-link and SMS-code checks per client IP' },
  passwordChangeFailuresPerUser: { env: 'RATE_LIMIT_PASSWORD_CHANGE_FAILURES_PER_USER', default: '5/900', counts: 'Password changes with a wrong current password per user' },
  mfaAttemptsPerUser: {
    env: 'RATE_LIMIT_MFA_ATTEMPTS_PER_USER',
    default: '10/900',
    counts: 'Second-factor checks per user (authenticator, emailed, texted and recovery codes and security-key assertions at sign-in or step-up, and the proofs given to remove a factor), over all of its mfaTokens; counted before the comparison so parallel guesses cannot slip past it, cleared by a right code; over it every attempt gets 429 until the window ends',
  },
  smsCodesPerUser: {
    env: 'RATE_LIMIT_SMS_CODES_PER_USER',
    default: '5/900',
    counts: 'Texted codes per user (SMS second factor at sign-in, enrolment and removal, and phone-number verification); over it the call gets 429 and nothing is sent',
  },
  smsCodesPerNumber: { env: 'RATE_LIMIT_SMS_CODES_PER_NUMBER', default: '10/3600', counts: 'Texted codes per destination phone number, over all users; over it the call gets 429 and nothing is sent' },
  phoneResetPerIp: { env: 'RATE_LIMIT_PHONE_RESET_PER_IP', default: '20/3600', counts: 'Reset-phone-number requests per client IP' },
  phoneResetPerEmail: {
    env: 'RATE_LIMIT_PHONE_RESET_PER_EMAIL',
    default: '3/3600',
    counts: 'Reset-phone-number requests per typed email; over it the call still answers 200 but sends nothing',
  },
  phoneVerifyPerIp: { env: 'RATE_LIMIT_PHONE_VERIFY_PER_IP', default: '60/600', counts: 'Reset-phone-number and phone-verification code checks per client IP' },
  unlockPerIp: { env: 'RATE_LIMIT_UNLOCK_PER_IP', default: '30/600', counts: 'Account-unlock link checks per client IP' },
  passwordlessPerIp: { env: 'RATE_LIMIT_PASSWORDLESS_PER_IP', default: '30/600', counts: 'Passwordless calls (magic-link, code or SMS-code request, and sign-in with a link or code) per client IP' },
  passwordlessPerIdentifier: {
    env: 'RATE_LIMIT_PASSWORDLESS_PER_IDENTIFIER',
    default: '5/3600',
    counts: 'Magic links and sign-in codes (emailed or texted) sent per typed email, username or phone number, and texted sign-in codes per destination phone number; over it the call still answers 200 but sends nothing',
  },
  captchaPerIp: {
    env: 'RATE_LIMIT_CAPTCHA_PER_IP',
    default: '100/600',
    counts: 'Captcha token checks per client IP while a captcha policy is set (each one is a call to CAPTCHA_VERIFY_URL; sign-in, sign-up, passwordless and password-reset requests that carry a token)',
  },
  invitePerUser: { env: 'RATE_LIMIT_INVITE_PER_USER', default: '50/3600', counts: 'Users invited per inviting admin' },
  invitationResendPerIp: { env: 'RATE_LIMIT_INVITATION_RESEND_PER_IP', default: '10/3600', counts: 'Resend-invitation calls per client IP' },
  invitationResendPerEmail: {
    env: 'RATE_LIMIT_INVITATION_RESEND_PER_EMAIL',
    default: '3/3600',
    counts: 'Resend-invitation calls per target email; over it the call still answers 200 but sends nothing',
  },
  invitationAcceptPerIp: { env: 'RATE_LIMIT_INVITATION_ACCEPT_PER_IP', default: '60/600', counts: 'Invitation checks and acceptances (verify, accept, accept with code) per client IP' },
  impersonationPerUser: { env: 'RATE_LIMIT_IMPERSONATION_PER_USER', default: '20/3600', counts: 'Impersonation tokens issued per admin' },
  impersonatePerIp: { env: 'RATE_LIMIT_IMPERSONATE_PER_IP', default: '30/600', counts: 'Impersonation token exchanges per client IP' },
  socialLoginPerIp: { env: 'RATE_LIMIT_SOCIAL_LOGIN_PER_IP', default: '60/600', counts: 'Social login calls (starting a sign-in at a provider, and finishing it with the provider\'s code) per client IP' },
  ssoPerIp: { env: 'RATE_LIMIT_SSO_PER_IP', default: '60/600', counts: 'SSO calls per client IP: SSO lookups at preLogin, sign-in starts, SAML responses posted to the ACS and SSO sign-in completions' },
  oauthAuthorizePerIp: { env: 'RATE_LIMIT_OAUTH_AUTHORIZE_PER_IP', default: '120/600', counts: 'Hosted-login authorization requests per client IP (GET /oauth/authorize, its completion by the hosted page, and silent authorization)' },
  oauthTokenPerIp: { env: 'RATE_LIMIT_OAUTH_TOKEN_PER_IP', default: '120/600', counts: 'Calls to the OAuth token endpoint per client IP (code exchanges and refreshes, right or wrong)' },
} as const satisfies Record<string, { env: string; default: string; counts: string }>;

export type RateLimitBucket = keyof typeof RATE_LIMIT_BUCKETS;

/** One configuration option: its variable name, default (as text) and meaning. */
export interface ConfigOption {
  name: string;
  default: string;
  description: string;
}

/** Machine-readable list of every option, for the README's configuration table. */
export const CONFIG_OPTIONS: readonly ConfigOption[] = [
  { name: 'GATEHOUSE_CONFIG', default: '(unset)', description: 'Path to a JSON file whose keys are these variable names; real environment variables win over it.' },
  { name: 'PORT', default: '8787', description: 'TCP port to listen on.' },
  { name: 'HOST', default: '127.0.0.1', description: 'Interface to listen on.' },
  { name: 'GATEHOUSE_PUBLIC_URL', default: 'http://localhost:<PORT>', description: 'URL browsers use to reach this server; token issuer and base of public links.' },
  { name: 'GATEHOUSE_DATA_DIR', default: './data', description: 'Folder of the SQLite file `gatehouse.db` (created if missing).' },
  { name: 'DATABASE_URL', default: '(unset)', description: 'postgres://... to use PostgreSQL instead of SQLite.' },
  { name: 'DATABASE_SCHEMA', default: '(unset)', description: 'PostgreSQL schema to use (search_path); created if missing.' },
  { name: 'GATEHOUSE_CLIENT_ID', default: 'demo-client', description: 'Client id: access-token audience and refresh-cookie name suffix.' },
  { name: 'GATEHOUSE_ALLOWED_ORIGINS', default: 'origin of the public URL', description: 'Comma-separated origins allowed to call the API with credentials (CORS) and to post to cookie endpoints.' },
  { name: 'GATEHOUSE_APP_URL', default: 'the public URL', description: 'Where links in emails point, unless the request came from an allowed origin.' },
  { name: 'ACCESS_TOKEN_TTL', default: '300', description: 'Access-token lifetime in seconds.' },
  { name: 'REFRESH_TOKEN_TTL', default: '2592000', description: 'Refresh-token (session) lifetime in seconds.' },
  { name: 'ACTIVATION_TOKEN_TTL', default: '86400', description: 'Activation-link lifetime in seconds.' },
  { name: 'SMTP_URL', default: '(unset)', description: 'smtp(s)://user:pass@host:port for real mail; unset keeps mail in the dev outbox.' },
  { name: 'MAIL_FROM', default: 'Gatehouse <no-reply@localhost>', description: 'Sender of every email.' },
  { name: 'RESET_PASSWORD_TOKEN_TTL', default: '1800', description: 'Password-reset link lifetime in seconds (single use; a newer request kills older links).' },
  { name: 'RESET_PASSWORD_SMS_CODE_TTL', default: '300', description: 'Password-reset SMS code lifetime in seconds (single use, 5 attempts).' },
  { name: 'SMS_HTTP_URL', default: '(unset)', description: 'http(s) endpoint of an SMS provider: each SMS is a POST of JSON `{"to","body"}`; unset keeps SMS in the dev outbox.' },
  { name: 'SMS_HTTP_TOKEN', default: '(unset)', description: 'Sent as `Authorization: Bearer <token>` to SMS_HTTP_URL.' },
  { name: 'GATEHOUSE_DEV', default: '0', description: "'1' turns on dev mode (demo page, /dev/mailbox); always off when NODE_ENV=production." },
  { name: 'GATEHOUSE_SIGNING_ALG', default: 'ES256', description: 'ES256 or RS256 (2048-bit keys) for access tokens.' },
  { name: 'GATEHOUSE_KEY_ENCRYPTION_KEY', default: '(unset)', description: '64 hex characters; when set, private signing keys are stored AES-256-GCM encrypted.' },
  { name: 'COOKIE_SAMESITE', default: 'lax', description: 'lax, strict or none (none forces Secure).' },
  { name: 'COOKIE_SECURE', default: 'auto', description: 'auto (Secure when the public URL is https or localhost), true or false.' },
  { name: 'MAX_BODY_BYTES', default: '1048576', description: "Largest request body; bigger ones get 413 'Error request is too large'." },
  { name: 'GATEHOUSE_CDN_DIR', default: './dist/cdn', description: 'Folder served at /cdn (relative to the working directory).' },
  { name: 'GATEHOUSE_DEMO_DIR', default: './demo', description: 'Folder holding the demo host page index.html (dev mode only).' },
  { name: 'GATEHOUSE_FLAGS', default: '{}', description: "JSON object of feature flag -> value served at /flags ('on' means on)." },
  { name: 'PASSWORD_MIN_LENGTH', default: '8', description: 'Shortest password accepted.' },
  { name: 'PASSWORD_MAX_LENGTH', default: '128', description: 'Longest password accepted.' },
  { name: 'PASSWORD_ALLOW_PASSPHRASES', default: 'true', description: 'Long passphrases skip the optional character tests.' },
  { name: 'PASSWORD_MIN_PHRASE_LENGTH', default: '20', description: 'Length from which a password counts as a passphrase.' },
  { name: 'PASSWORD_MIN_OPTIONAL_TESTS', default: '0', description: 'How many of lowercase, uppercase, digit, symbol a password must contain.' },
  { name: 'ALLOW_SIGNUPS', default: 'true', description: 'Whether anyone may sign up.' },
  { name: 'SIGNUP_EMAIL', default: 'required', description: 'Sign-up strategy email: required, optional or off. With off (or optional, when no email is typed) users sign up by phone number instead.' },
  {
    name: 'SIGNUP_PHONE_NUMBER',
    default: 'off',
    description:
      'Sign-up strategy phoneNumber: required, optional or off. With SIGNUP_EMAIL=required it is a field of the email sign-up (stored, not verified). Otherwise users may sign up with a phone number alone (POST .../signUp/phoneNumber, no email, no password): a texted code proves the number and signs them in, so it needs LOGIN_STRATEGY=SmsCodeV2.',
  },
  { name: 'TRUST_PROXY', default: 'false', description: 'Read the client IP from X-Forwarded-For (only behind a trusted proxy).' },
  { name: 'MFA_POLICY', default: 'optional', description: "optional: users may enrol a second factor and are asked for it at sign-in once enrolled; force: users without one must enrol at sign-in (forceTwoFactor). Default for tenants without their own MFA policy." },
  { name: 'MFA_REMEMBER_DEVICE_DAYS', default: '30', description: "Days a browser may skip MFA after the user ticks 'Remember this device' (an httpOnly cookie bound to the user); 0 turns the option off." },
  { name: 'WEBAUTHN_RP_ID', default: 'host name of the public URL', description: 'Passkeys relying-party ID: a domain that is, or is a parent of, the host of the pages that show the login box (e.g. example.com for app.example.com). Passkeys are bound to it; changing it orphans existing passkeys.' },
  { name: 'WEBAUTHN_RP_NAME', default: 'Gatehouse', description: 'Name shown by the browser and the authenticator when a passkey is created.' },
  { name: 'LOGIN_STRATEGY', default: 'EmailAndPassword', description: `The login policy: ${LOGIN_STRATEGIES.join(', ')}. MagicLink and Code email a sign-in link (15 minutes) or a 6-digit code (10 minutes) instead of asking for a password; SmsCode (email typed), SmsCodeV2 (phone number typed) and UsernameAndSms (username typed) text a 6-digit code (5 minutes) to the account's verified phone number (needs SMS_HTTP_URL outside dev mode); Username* sign in with a username; NoLocalAuthentication refuses password, link and code sign-in.` },
  { name: 'PASSKEYS_PROMPT', default: 'off', description: "'on' makes passkeys an active secondary login strategy: after a password sign-in users without a passkey are offered to add one (also needs the feature flag show-passkeys-new set to on in GATEHOUSE_FLAGS)." },
  { name: 'LOCKOUT_MAX_ATTEMPTS', default: '0', description: "Wrong passwords in a row after which the account is locked until the user opens the emailed unlock link (or resets the password); 0 turns lockout off. Counted in the database, so every server process agrees. Separate from the rate limits, which only slow guessing down." },
  { name: 'UNLOCK_TOKEN_TTL', default: '86400', description: 'Unlock-link lifetime in seconds (single use).' },
  { name: 'PASSWORD_EXPIRES_IN_DAYS', default: '0', description: 'Password rotation: days a password stays valid (counted from when it was set); an expired one must be replaced at sign-in (passwordRotationExpired). 0 turns rotation off.' },
  { name: 'PASSWORD_ROTATION_NOTIFICATION_DAYS', default: '0', description: 'Sign-ins warn (passwordRotationNotification) when days to expiry are at or below this.' },
  { name: 'CAPTCHA_SITE_KEY', default: '(unset)', description: 'reCAPTCHA v3 site key (public). Set with CAPTCHA_SECRET_KEY to turn the captcha policy on: sign-in, sign-up, passwordless sign-in requests and password-reset requests then need a recaptchaToken, and the login box runs reCAPTCHA v3 before sending them. Unset: captcha off.' },
  { name: 'CAPTCHA_SECRET_KEY', default: '(unset)', description: 'reCAPTCHA v3 secret key; sent only to CAPTCHA_VERIFY_URL, never served or logged.' },
  { name: 'CAPTCHA_MIN_SCORE', default: '0.5', description: 'Lowest reCAPTCHA v3 score accepted, from 0.0 (surely a bot) to 1.0 (surely a person).' },
  { name: 'CAPTCHA_VERIFY_URL', default: 'https://www.google.com/recaptcha/api/siteverify', description: 'Where tokens are verified: a form POST of secret, response and remoteip answered with the siteverify JSON (success, score, action, hostname). https in production.' },
  { name: 'CAPTCHA_SCRIPT_URL', default: 'https://www.google.com/recaptcha/api.js', description: "The reCAPTCHA v3 script the login box loads, only while the policy is on (with `?render=` and the site key, and the page's CSP nonce). The demo page's CSP allows its frames." },
  { name: 'CAPTCHA_IGNORED_EMAILS', default: '(unset)', description: 'Comma-separated emails whose sign-in, sign-up, passwordless and reset requests skip the captcha check (e.g. accounts of automated tests).' },
  { name: 'CAPTCHA_VERIFY_TIMEOUT_MS', default: '5000', description: 'How long one verify call may take. A timeout, an unreachable verify URL or a refused secret key refuses the request (503): captcha fails closed.' },
  { name: 'BREACHED_PASSWORD_CHECK', default: 'true', description: "Refuse passwords on the shipped breached-password list at sign-up, activation, reset and change. At sign-in, a breached password is caught only when the feature flag breached-password is 'on' in GATEHOUSE_FLAGS (breachedPassword step)." },
  { name: 'INVITATION_TOKEN_TTL', default: '604800', description: 'Invitation link lifetime in seconds (single use; a resend replaces the link).' },
  { name: 'INVITATION_STRATEGY', default: 'link', description: 'link: the invitation email has a link to /account/invitation/accept that accepts the invitation; code: the link opens /account/invitation/code and acceptance also needs the 6-digit code printed in the email (never part of a URL, so link scanners and URL logs cannot accept it; 5 wrong codes spend it).' },
  { name: 'IMPERSONATION_TOKEN_TTL', default: '120', description: 'Lifetime in seconds of an impersonation token (single use; exchanged at /account/impersonate).' },
  { name: 'IMPERSONATION_SESSION_TTL', default: '1800', description: 'Lifetime in seconds of a session started by impersonation; it cannot be refreshed beyond that.' },
  { name: 'TEMPORARY_USERS', default: 'true', description: "Whether tenant admins may make a user temporary: the user's membership of that tenant ends a given number of seconds from now (their other tenants are untouched)." },
  { name: 'MFA_STRATEGIES', default: 'AuthenticatorApp,EmailCode,SMS,WebAuthnPlatform,WebAuthnCrossPlatform', description: "Comma-separated MFA methods users may enrol and use: AuthenticatorApp, EmailCode, SMS, WebAuthnPlatform (this device's fingerprint, face or screen lock), WebAuthnCrossPlatform (a security key or a phone). SMS is active only when SMS can be sent (SMS_HTTP_URL, or the dev outbox in dev mode). Devices of a method turned off stay enrolled but cannot be used until it is on again; recovery codes still work." },
  { name: 'SSO_SAML_SP_KEY', default: '(unset)', description: 'PEM private key (or the path of a PEM file) that signs SAML AuthnRequests of SSO configurations with signRequest on; set with SSO_SAML_SP_CERT, e.g. from `openssl req -x509 -newkey rsa:2048 -nodes -days 730 -subj /CN=gatehouse -keyout sp.key -out sp.crt`.' },
  { name: 'SSO_SAML_SP_CERT', default: '(unset)', description: 'PEM certificate (or the path of a PEM file) of SSO_SAML_SP_KEY, published in the SP metadata so IdPs can check signed AuthnRequests.' },
  { name: 'SSO_DNS_SERVERS', default: '(unset)', description: "Comma-separated DNS servers (`ip` or `ip:port`) asked for the TXT records that validate SSO domains; unset: the system's resolvers." },
  {
    name: 'SOCIAL_LOGIN_PROVIDERS',
    default: '(unset)',
    description:
      'JSON object of the social login providers to offer (OAuth 2.0 authorization code with PKCE, state and nonce). Keys: google, microsoft, apple, linkedin, slack, github, facebook, each `{"clientId","clientSecret","scopes","enabled","displayName","trustEmail"}` (microsoft also `tenant`, default common; apple instead of clientSecret `teamId`, `keyId` and `privateKey`, the PEM of its Sign in with Apple key), and `custom`: an array of `{"id","displayName","clientId","clientSecret","scopes"}` plus `issuer` (OpenID Connect discovery) or `authorizationEndpoint`, `tokenEndpoint`, `userinfoEndpoint` (and `jwksUri` with `issuer` for ID tokens). Register `<page origin><socialLoginCallbackUrl>` (default `/account/social/success`) as the redirect URI at the provider; for apple register `<GATEHOUSE_PUBLIC_URL>/identity/resources/auth/v1/user/sso/apple/callback`. trustEmail (default false) treats the email as verified when the provider says nothing about it (Facebook never does). In a GATEHOUSE_CONFIG file the value may be the object itself.',
  },
  { name: 'SOCIAL_LOGIN_ALLOW_SIGNUP', default: 'ALLOW_SIGNUPS', description: 'Whether a first social sign-in with a verified email that no account has creates one (isNewUser). Also needs ALLOW_SIGNUPS.' },
  { name: 'SOCIAL_LOGIN_STATE_TTL', default: '600', description: 'Seconds between starting a social sign-in and finishing it (state, nonce and PKCE verifier, single use).' },
  {
    name: 'OAUTH_CLIENTS_FILE',
    default: '(unset)',
    description:
      'Path of a JSON file of the applications that may use hosted login (OAuth 2.0 / OpenID Connect): `{"clients": [{"clientId", "name", "redirectUris", "postLogoutRedirectUris", "clientSecretHash"}]}`. URIs are matched exactly (https, or http on localhost); clientSecretHash (`sha256:<hex>`, from `npm run gatehouse -- clients secret`) makes a confidential client, without it the client is public (PKCE only). Clients can also be added with `npm run gatehouse -- clients add`. Dev mode adds the public client demo-spa, which accepts any http://localhost, 127.0.0.1 or [::1] URI.',
  },
  ...Object.values(RATE_LIMIT_BUCKETS).map((b) => ({
    name: b.env,
    default: b.default,
    description: `${b.counts}. Format \`<count>/<seconds>\`: at most count per window of that many seconds (counters are kept in the database).`,
  })),
];

/** Markdown table of CONFIG_OPTIONS; the README holds its output. */
export function renderConfigTable(): string {
  const rows = CONFIG_OPTIONS.map((o) => `| \`${o.name}\` | ${o.default.includes('<') ? o.default.replace(/</g, '&lt;') : `\`${o.default}\``} | ${o.description} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** Thrown at start when the configuration cannot work; the message says what to fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Source = Record<string, string | undefined>;

function readFileSource(env: Source): Source {
  const file = env.GATEHOUSE_CONFIG;
  if (!file) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path.resolve(file), 'utf8'));
  } catch (err) {
    throw new ConfigError(`GATEHOUSE_CONFIG points to ${file}, which could not be read as JSON (${(err as Error).message}).`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`GATEHOUSE_CONFIG file ${file} must hold a JSON object of variable names to values.`);
  const out: Source = {};
  for (const [k, v] of Object.entries(parsed)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

function int(src: Source, name: string, def: number, min = 0): number {
  const raw = src[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}".`);
  return n;
}

function bool(src: Source, name: string, def: boolean): boolean {
  const raw = src[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return def;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${src[name]}".`);
}

function oneOf<T extends string>(src: Source, name: string, values: readonly T[], def: T, normalise = (s: string) => s): T {
  const raw = src[name];
  if (raw === undefined || raw === '') return def;
  const v = normalise(raw.trim()) as T;
  if (!values.includes(v)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}".`);
  return v;
}

/** Reads `<count>/<seconds>`, e.g. `30/600` for 30 per 10 minutes. */
function rateLimit(src: Source, name: string, def: string): RateLimitRule {
  const raw = src[name]?.trim() || def;
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(raw);
  if (!match) throw new ConfigError(`${name} must be <count>/<seconds>, such as "30/600" for 30 per 10 minutes, got "${src[name]}".`);
  const limit = Number(match[1]);
  const windowSeconds = Number(match[2]);
  if (limit < 1 || limit > 1_000_000_000) throw new ConfigError(`${name} must allow between 1 and 1000000000 requests per window, got "${src[name]}".`);
  if (windowSeconds < 1 || windowSeconds > 31 * 86400) throw new ConfigError(`${name} must have a window between 1 second and 31 days, got "${src[name]}".`);
  return { limit, windowSeconds };
}

const MFA_STRATEGY_NAMES: readonly MfaStrategy[] = Object.values(MfaStrategies);

/** MFA_STRATEGIES: a comma-separated subset of the MFA methods (case-insensitive names). */
function mfaStrategyList(src: Source): MfaStrategy[] {
  const raw = src.MFA_STRATEGIES;
  if (raw === undefined || raw.trim() === '') return [...MFA_STRATEGY_NAMES];
  return [
    ...new Set(
      raw.split(',').map((s) => s.trim()).filter(Boolean).map((name) => {
        const found = MFA_STRATEGY_NAMES.find((s) => s.toLowerCase() === name.toLowerCase());
        if (!found) throw new ConfigError(`MFA_STRATEGIES must list some of ${MFA_STRATEGY_NAMES.join(', ')}, got "${name}".`);
        return found;
      }),
    ),
  ];
}

function url(name: string, raw: string): URL {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    return u;
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}".`);
  }
}

/** Reads the captcha policy: off unless both keys are set; a half-set policy stops the server. */
function captchaConfig(src: Source, production: boolean): CaptchaConfig | null {
  const siteKey = src.CAPTCHA_SITE_KEY?.trim();
  const secretKey = src.CAPTCHA_SECRET_KEY?.trim();
  if (!siteKey && !secretKey) return null;
  if (!siteKey || !secretKey) throw new ConfigError(`${siteKey ? 'CAPTCHA_SITE_KEY' : 'CAPTCHA_SECRET_KEY'} is set but ${siteKey ? 'CAPTCHA_SECRET_KEY' : 'CAPTCHA_SITE_KEY'} is not; set both to turn captcha on, or neither.`);
  // The site key goes into a script URL and the public policy; the secret is never echoed.
  if (!/^[\w.-]{1,256}$/.test(siteKey)) throw new ConfigError('CAPTCHA_SITE_KEY must be 1 to 256 letters, digits, dots, dashes or underscores.');
  const rawScore = src.CAPTCHA_MIN_SCORE?.trim();
  const minScore = rawScore ? Number(rawScore) : 0.5;
  if (!Number.isFinite(minScore) || minScore < 0 || minScore > 1) throw new ConfigError(`CAPTCHA_MIN_SCORE must be a number from 0.0 to 1.0, got "${rawScore}".`);
  const verifyUrl = url('CAPTCHA_VERIFY_URL', src.CAPTCHA_VERIFY_URL?.trim() || 'https://www.google.com/recaptcha/api/siteverify');
  const verifyTimeoutMs = int(src, 'CAPTCHA_VERIFY_TIMEOUT_MS', 5000, 100);
  if (verifyTimeoutMs > 60_000) throw new ConfigError(`CAPTCHA_VERIFY_TIMEOUT_MS must be at most 60000 (a sign-in waits for it), got ${verifyTimeoutMs}.`);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(verifyUrl.hostname);
  if (production && verifyUrl.protocol !== 'https:' && !loopback) throw new ConfigError('CAPTCHA_VERIFY_URL must be https in production: the secret key is sent to it.');
  return {
    siteKey,
    secretKey,
    minScore,
    verifyUrl: verifyUrl.href,
    scriptUrl: url('CAPTCHA_SCRIPT_URL', src.CAPTCHA_SCRIPT_URL?.trim() || 'https://www.google.com/recaptcha/api.js').href,
    ignoredEmails: (src.CAPTCHA_IGNORED_EMAILS ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean),
    verifyTimeoutMs,
  };
}

/** Reads one sign-up strategy: required, optional or off. */
function signUpStrategy(src: Source, name: string, def: 'required' | 'optional' | 'off'): SignUpStrategy {
  const mode = oneOf(src, name, ['required', 'optional', 'off'] as const, def, (s) => s.toLowerCase());
  return { enabled: mode !== 'off', required: mode === 'required' };
}

/**
 * Reads SIGNUP_EMAIL and SIGNUP_PHONE_NUMBER, and checks them with the login policy: accounts made
 * by phone sign-up have neither an email nor a password, so they can only ever sign in with a code
 * texted to their phone number (SmsCodeV2), and texted codes need a provider outside dev mode.
 */
function signUpStrategiesConfig(src: Source, loginStrategy: LoginStrategy, canSendSms: boolean): SignUpStrategies {
  const strategies = { email: signUpStrategy(src, 'SIGNUP_EMAIL', 'required'), phoneNumber: signUpStrategy(src, 'SIGNUP_PHONE_NUMBER', 'off') };
  if (!strategies.email.enabled && !strategies.phoneNumber.enabled) {
    throw new ConfigError('SIGNUP_EMAIL and SIGNUP_PHONE_NUMBER are both off, so nobody could sign up; turn one on, or set ALLOW_SIGNUPS=false to close sign-up.');
  }
  if (phoneSignUpOpen(strategies) && loginStrategy !== 'SmsCodeV2') {
    throw new ConfigError(`SIGNUP_PHONE_NUMBER lets users sign up with a phone number alone, but LOGIN_STRATEGY is ${loginStrategy}, so they could never sign in again; set LOGIN_STRATEGY=SmsCodeV2 (or SIGNUP_EMAIL=required).`);
  }
  if (passwordlessTypeOf(loginStrategy) === 'smscode' && !canSendSms) {
    throw new ConfigError(`LOGIN_STRATEGY=${loginStrategy} texts sign-in codes, but SMS_HTTP_URL is not set (outside dev mode nobody reads the SMS outbox); set SMS_HTTP_URL.`);
  }
  return strategies;
}

/** Reads the passkey settings; the RP ID must cover at least one origin a ceremony can come from. */
function webauthnConfig(src: Source, publicUrl: URL, allowedOrigins: string[]): WebauthnConfig {
  const rpId = (src.WEBAUTHN_RP_ID?.trim() || publicUrl.hostname).toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(rpId) || rpId.startsWith('.') || rpId.endsWith('.')) throw new ConfigError(`WEBAUTHN_RP_ID must be a host name such as example.com, got "${src.WEBAUTHN_RP_ID}".`);
  const covers = (origin: string) => {
    const host = new URL(origin).hostname;
    return host === rpId || host.endsWith(`.${rpId}`);
  };
  const origins = [...new Set([publicUrl.origin, ...allowedOrigins])].filter(covers);
  if (origins.length === 0) {
    throw new ConfigError(`WEBAUTHN_RP_ID (${rpId}) is neither the host nor a parent domain of GATEHOUSE_PUBLIC_URL or any of GATEHOUSE_ALLOWED_ORIGINS, so no page could use passkeys.`);
  }
  return { rpId, rpName: src.WEBAUTHN_RP_NAME?.trim() || 'Gatehouse', origins, passkeysPrompt: bool(src, 'PASSKEYS_PROMPT', false) };
}

/** A PEM value given inline or as the path of a file holding it. */
function pemSetting(src: Source, name: string): string | null {
  const raw = src[name]?.trim();
  if (!raw) return null;
  if (raw.startsWith('-----BEGIN')) return raw;
  try {
    return readFileSync(path.resolve(raw), 'utf8');
  } catch (err) {
    throw new ConfigError(`${name} is neither PEM text nor a readable file (${(err as Error).message}).`);
  }
}

/** Reads the SSO settings; a half-set or mismatched SP key pair stops the server. */
function ssoConfig(src: Source, dev: boolean): SsoConfig {
  const spSigningKey = pemSetting(src, 'SSO_SAML_SP_KEY');
  const spSigningCert = pemSetting(src, 'SSO_SAML_SP_CERT');
  if (!spSigningKey !== !spSigningCert) throw new ConfigError(`${spSigningKey ? 'SSO_SAML_SP_KEY' : 'SSO_SAML_SP_CERT'} is set but ${spSigningKey ? 'SSO_SAML_SP_CERT' : 'SSO_SAML_SP_KEY'} is not; set both (or neither).`);
  if (spSigningKey && spSigningCert) {
    let matches = false;
    try {
      matches = new X509Certificate(spSigningCert).checkPrivateKey(createPrivateKey(spSigningKey));
    } catch (err) {
      throw new ConfigError(`SSO_SAML_SP_KEY / SSO_SAML_SP_CERT could not be read as a PEM private key and certificate (${(err as Error).message}).`);
    }
    if (!matches) throw new ConfigError('SSO_SAML_SP_CERT is not the certificate of SSO_SAML_SP_KEY.');
  }
  const dnsServers = (src.SSO_DNS_SERVERS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const server of dnsServers) {
    if (!/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:]+\](:\d{1,5})?|[0-9a-fA-F:]+)$/.test(server)) throw new ConfigError(`SSO_DNS_SERVERS must list IP addresses (ip or ip:port), got "${server}".`);
  }
  return { spSigningKey, spSigningCert, dnsServers, allowHttpLoopback: dev };
}

/** Reads the configuration from the environment (and the optional GATEHOUSE_CONFIG file). */
export function loadConfig(env: Source = process.env): Config {
  const src: Source = { ...readFileSource(env), ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
  const port = int(src, 'PORT', 8787, 0);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535, got ${port}.`);
  const publicUrlObj = url('GATEHOUSE_PUBLIC_URL', src.GATEHOUSE_PUBLIC_URL || `http://localhost:${port}`);
  const publicUrl = publicUrlObj.href.replace(/\/$/, '');
  const publicOrigin = publicUrlObj.origin;
  const allowedOrigins = (src.GATEHOUSE_ALLOWED_ORIGINS ? src.GATEHOUSE_ALLOWED_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean) : [publicOrigin]).map(
    (o) => url('GATEHOUSE_ALLOWED_ORIGINS', o).origin,
  );
  const appUrl = src.GATEHOUSE_APP_URL ? url('GATEHOUSE_APP_URL', src.GATEHOUSE_APP_URL).href.replace(/\/$/, '') : publicUrl;

  const databaseUrl = src.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new ConfigError(`DATABASE_URL must start with postgres:// (or be unset for SQLite), got "${databaseUrl.split('@').pop()}".`);
  const databaseSchema = src.DATABASE_SCHEMA?.trim() || null;
  if (databaseSchema && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) throw new ConfigError('DATABASE_SCHEMA must be a lowercase identifier (letters, digits, underscore).');

  const kekRaw = src.GATEHOUSE_KEY_ENCRYPTION_KEY?.trim();
  if (kekRaw && !/^[0-9a-fA-F]{64}$/.test(kekRaw)) throw new ConfigError('GATEHOUSE_KEY_ENCRYPTION_KEY must be exactly 64 hex characters (32 bytes); generate one with `openssl rand -hex 32`.');

  const smtpUrl = src.SMTP_URL?.trim() || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SMTP_URL must start with smtp:// or smtps://.');
  const smsHttpUrl = src.SMS_HTTP_URL?.trim() ? url('SMS_HTTP_URL', src.SMS_HTTP_URL.trim()).href : null;
  const smsHttpToken = src.SMS_HTTP_TOKEN?.trim() || null;
  if (smsHttpToken && !smsHttpUrl) throw new ConfigError('SMS_HTTP_TOKEN is set but SMS_HTTP_URL is not; set the provider URL too, or remove the token.');

  let flags: Record<string, string> = {};
  if (src.GATEHOUSE_FLAGS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(src.GATEHOUSE_FLAGS);
    } catch {
      throw new ConfigError('GATEHOUSE_FLAGS must be a JSON object such as {"passkeys":"on"}.');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError('GATEHOUSE_FLAGS must be a JSON object such as {"passkeys":"on"}.');
    flags = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
  }

  const cookieSameSite = oneOf(src, 'COOKIE_SAMESITE', ['lax', 'strict', 'none'] as const, 'lax', (s) => s.toLowerCase());
  const secureMode = oneOf(src, 'COOKIE_SECURE', ['auto', 'true', 'false'] as const, 'auto', (s) => s.toLowerCase());
  const localHost = ['localhost', '127.0.0.1', '[::1]'].includes(publicUrlObj.hostname);
  let cookieSecure = secureMode === 'auto' ? publicUrlObj.protocol === 'https:' || localHost : secureMode === 'true';
  if (!cookieSecure && src.NODE_ENV === 'production') {
    throw new ConfigError(`The refresh cookie would be sent without Secure: GATEHOUSE_PUBLIC_URL (${publicUrlObj.origin}) must be https in production, or set COOKIE_SECURE=true.`);
  }
  if (cookieSameSite === 'none') {
    if (secureMode === 'false') throw new ConfigError('COOKIE_SAMESITE=none needs Secure cookies; remove COOKIE_SECURE=false.');
    cookieSecure = true;
  }

  const password = {
    minLength: int(src, 'PASSWORD_MIN_LENGTH', 8, 1),
    maxLength: int(src, 'PASSWORD_MAX_LENGTH', 128, 1),
    allowPassphrases: bool(src, 'PASSWORD_ALLOW_PASSPHRASES', true),
    minPhraseLength: int(src, 'PASSWORD_MIN_PHRASE_LENGTH', 20, 1),
    minOptionalTestsToPass: int(src, 'PASSWORD_MIN_OPTIONAL_TESTS', 0, 0),
  };
  if (password.minLength > password.maxLength) throw new ConfigError(`PASSWORD_MIN_LENGTH (${password.minLength}) is larger than PASSWORD_MAX_LENGTH (${password.maxLength}).`);
  if (password.maxLength > 1024) throw new ConfigError('PASSWORD_MAX_LENGTH must be at most 1024.');
  if (password.minOptionalTestsToPass > 4) throw new ConfigError('PASSWORD_MIN_OPTIONAL_TESTS must be between 0 and 4 (lowercase, uppercase, digit, symbol).');

  const production = src.NODE_ENV === 'production';
  return {
    port,
    host: src.HOST?.trim() || '127.0.0.1',
    publicUrl,
    publicOrigin,
    dataDir: path.resolve(src.GATEHOUSE_DATA_DIR || './data'),
    databaseUrl,
    databaseSchema,
    clientId: src.GATEHOUSE_CLIENT_ID?.trim() || 'demo-client',
    allowedOrigins,
    appUrl,
    accessTokenTtl: int(src, 'ACCESS_TOKEN_TTL', 300, 10),
    refreshTokenTtl: int(src, 'REFRESH_TOKEN_TTL', 2592000, 60),
    activationTokenTtl: int(src, 'ACTIVATION_TOKEN_TTL', 86400, 60),
    smtpUrl,
    mailFrom: src.MAIL_FROM?.trim() || 'Gatehouse <no-reply@localhost>',
    resetPasswordTokenTtl: int(src, 'RESET_PASSWORD_TOKEN_TTL', 1800, 60),
    resetPasswordSmsCodeTtl: int(src, 'RESET_PASSWORD_SMS_CODE_TTL', 300, 30),
    smsHttpUrl,
    smsHttpToken,
    dev: !production && bool(src, 'GATEHOUSE_DEV', false),
    signingAlg: oneOf(src, 'GATEHOUSE_SIGNING_ALG', ['ES256', 'RS256'] as const, 'ES256', (s) => s.toUpperCase()),
    keyEncryptionKey: kekRaw ? Buffer.from(kekRaw, 'hex') : null,
    cookieSameSite,
    cookieSecure,
    maxBodyBytes: int(src, 'MAX_BODY_BYTES', 1048576, 1024),
    cdnDir: path.resolve(src.GATEHOUSE_CDN_DIR || './dist/cdn'),
    demoDir: path.resolve(src.GATEHOUSE_DEMO_DIR || './demo'),
    mfa: { enforce: oneOf(src, 'MFA_POLICY', ['optional', 'force'] as const, 'optional', (s) => s.toLowerCase()), rememberDeviceDays: int(src, 'MFA_REMEMBER_DEVICE_DAYS', 30, 0) },
    flags,
    password,
    allowSignups: bool(src, 'ALLOW_SIGNUPS', true),
    signUpStrategies: signUpStrategiesConfig(src, oneOf(src, 'LOGIN_STRATEGY', LOGIN_STRATEGIES, 'EmailAndPassword'), smsHttpUrl !== null || (!production && bool(src, 'GATEHOUSE_DEV', false))),
    trustProxy: bool(src, 'TRUST_PROXY', false),
    webauthn: webauthnConfig(src, publicUrlObj, allowedOrigins),
    loginStrategy: oneOf(src, 'LOGIN_STRATEGY', LOGIN_STRATEGIES, 'EmailAndPassword'),
    mfaStrategies: mfaStrategyList(src),
    passwordPolicies: {
      lockoutMaxAttempts: int(src, 'LOCKOUT_MAX_ATTEMPTS', 0, 0),
      unlockTokenTtl: int(src, 'UNLOCK_TOKEN_TTL', 86400, 60),
      expiresInDays: int(src, 'PASSWORD_EXPIRES_IN_DAYS', 0, 0),
      notificationDays: int(src, 'PASSWORD_ROTATION_NOTIFICATION_DAYS', 0, 0),
      rejectBreached: bool(src, 'BREACHED_PASSWORD_CHECK', true),
    },
    captcha: captchaConfig(src, production),
    invitation: { tokenTtl: int(src, 'INVITATION_TOKEN_TTL', 604800, 60), strategy: oneOf(src, 'INVITATION_STRATEGY', ['link', 'code'] as const, 'link', (s) => s.toLowerCase()) },
    impersonation: { tokenTtl: int(src, 'IMPERSONATION_TOKEN_TTL', 120, 10), sessionTtl: int(src, 'IMPERSONATION_SESSION_TTL', 1800, 60) },
    temporaryUsers: bool(src, 'TEMPORARY_USERS', true),
    socialLogin: socialLoginConfig(
      { providers: src.SOCIAL_LOGIN_PROVIDERS, allowSignUp: bool(src, 'ALLOW_SIGNUPS', true) && bool(src, 'SOCIAL_LOGIN_ALLOW_SIGNUP', true), stateTtl: int(src, 'SOCIAL_LOGIN_STATE_TTL', 600, 60) },
      (message) => new ConfigError(message),
    ),
    sso: ssoConfig(src, !production && bool(src, 'GATEHOUSE_DEV', false)),
    oauthClients: loadClientsFile(src.OAUTH_CLIENTS_FILE, src.GATEHOUSE_CLIENT_ID?.trim() || 'demo-client', (message) => new ConfigError(message)),
    rateLimits: Object.fromEntries(
      Object.entries(RATE_LIMIT_BUCKETS).map(([bucket, b]) => [bucket, rateLimit(src, b.env, b.default)]),
    ) as Record<RateLimitBucket, RateLimitRule>,
  };
}
