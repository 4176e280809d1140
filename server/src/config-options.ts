/**
 * Every configuration option the server reads, with its default and meaning: the source of the
 * configuration table in docs/configuration.md (config.test.ts regenerates it with
 * UPDATE_CONFIG_MD=1). Kept apart from config.ts, which reads and checks the values.
 */
import { LOGIN_STRATEGIES } from '@gatehouse/shared/wire';

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
  refreshPerIp: { env: 'RATE_LIMIT_REFRESH_PER_IP', default: '120/60', counts: 'Refused token refreshes per client IP (a successful refresh only reads the count), and every users/v3/me/token call' },
  passwordResetPerIp: { env: 'RATE_LIMIT_PASSWORD_RESET_PER_IP', default: '20/3600', counts: 'Password-recovery requests (email or SMS) per client IP' },
  passwordResetPerIdentifier: {
    env: 'RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER',
    default: '3/3600',
    counts: 'Password-recovery requests per typed email, username or phone number; over it the call still answers 200 but sends nothing',
  },
  passwordResetVerifyPerIp: { env: 'RATE_LIMIT_PASSWORD_RESET_VERIFY_PER_IP', default: '60/600', counts: 'Reset-link and SMS-code checks per client IP' },
  passwordChangeFailuresPerUser: { env: 'RATE_LIMIT_PASSWORD_CHANGE_FAILURES_PER_USER', default: '5/900', counts: 'Password changes with a wrong current password per user' },
  emailChangePerUser: { env: 'RATE_LIMIT_EMAIL_CHANGE_PER_USER', default: '5/3600', counts: 'Email-change requests (each emails a link and a code to the new address) per user' },
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
  smsCodesPerNumber: {
    env: 'RATE_LIMIT_SMS_CODES_PER_NUMBER',
    default: '10/3600',
    counts: 'Texted codes per destination phone number, over all users (SMS second factor, phone verification, and SMS sign-in and phone sign-up codes); over it nothing is sent (the second factor and phone verification get 429, SMS sign-in answers as usual)',
  },
  phoneSignUpCodes: {
    env: 'RATE_LIMIT_PHONE_SIGNUP_CODES',
    default: '5/86400',
    counts: 'Texted codes per phone sign-up still waiting for its number to be proven (such an account expires 24 hours after the sign-up); over it the SMS sign-in call still answers 200 but sends nothing',
  },
  smsGlobal: {
    env: 'RATE_LIMIT_SMS_GLOBAL',
    default: '500/3600',
    counts: 'Text messages sent by this deployment in total, over every flow and every server process (the SMS budget against SMS pumping); over it nothing is sent, the call that needed the SMS gets 503 (background sends are dropped), and the log says `SMS budget exhausted` once a minute per process',
  },
  channelEmailsPerTenant: {
    env: 'RATE_LIMIT_CHANNEL_EMAILS_PER_TENANT',
    default: '300/3600',
    counts: "Event notification emails (the email channel's subscriptions) sent per account, over every server process: recipients are typed by the account's admins and never confirmed, so this bounds what one account can mail; over it the rest wait and are sent in a later window (retried on the channel's schedule), not dropped",
  },
  channelSmsPerTenant: {
    env: 'RATE_LIMIT_CHANNEL_SMS_PER_TENANT',
    default: '30/3600',
    counts: "Event notification SMS (the SMS channel's subscriptions) sent per account, over every server process: numbers are typed by the account's admins and never confirmed; over it the SMS is dropped (given up, not retried) with a log line",
  },
  channelSmsGlobal: {
    env: 'RATE_LIMIT_CHANNEL_SMS_GLOBAL',
    default: '100/3600',
    counts: "Event notification SMS sent by this deployment in total, over every account and process: notifications' share of RATE_LIMIT_SMS_GLOBAL (each also counts there), so sign-in and recovery codes keep the rest; keep it well below RATE_LIMIT_SMS_GLOBAL (the default is 20% of its default); over it the SMS is dropped with a log line",
  },
  channelSmsPerRecipient: {
    env: 'RATE_LIMIT_CHANNEL_SMS_PER_RECIPIENT',
    default: '1/600',
    counts: "Event notification SMS per account, number and event key (checked when the event is fanned out): later events of the key in the window text that number nothing (dropped with a log line, not queued)",
  },
  webhookTestsPerTenant: { env: 'RATE_LIMIT_WEBHOOK_TESTS_PER_TENANT', default: '30/600', counts: "Webhook test deliveries (POST .../webhooks/v1/:id/test) per account, over every server process: each makes an outbound request now; over it the call gets 429 with Retry-After" },
  webhookRetriesPerTenant: { env: 'RATE_LIMIT_WEBHOOK_RETRIES_PER_TENANT', default: '30/600', counts: 'Webhook delivery retries asked by admins (POST .../webhooks/v1/logs/:logId/retry) per account, over every server process; over it the call gets 429 with Retry-After' },
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
  oauthTokenPerIp: { env: 'RATE_LIMIT_OAUTH_TOKEN_PER_IP', default: '120/600', counts: 'Refused calls to the OAuth token endpoint per client IP (code exchanges, refreshes and client_credentials grants); a successful call only reads the count, and once it holds the limit every call gets 429 slow_down' },
  scimPerConnection: { env: 'RATE_LIMIT_SCIM_PER_CONNECTION', default: '600/60', counts: 'SCIM 2.0 requests (/scim/v2) per provisioning connection; over it the call gets 429 in the SCIM error schema with Retry-After' },
  scimBadTokenPerIp: { env: 'RATE_LIMIT_SCIM_BAD_TOKEN_PER_IP', default: '30/600', counts: 'SCIM 2.0 requests (/scim/v2) with a missing or wrong bearer token per client IP; past it they get 429 in the SCIM error schema with Retry-After instead of 401' },
} as const satisfies Record<string, { env: string; default: string; counts: string }>;

export type RateLimitBucket = keyof typeof RATE_LIMIT_BUCKETS;

/** One configuration option: its variable name, default (as text) and meaning. */
export interface ConfigOption {
  name: string;
  default: string;
  description: string;
}

/** Machine-readable list of every option, for the configuration table in docs/configuration.md. */
export const CONFIG_OPTIONS: readonly ConfigOption[] = [
  { name: 'GATEHOUSE_CONFIG', default: '(unset)', description: 'Path to a JSON file whose keys are these variable names; real environment variables win over it.' },
  { name: 'PORT', default: '8787', description: 'TCP port to listen on.' },
  { name: 'HOST', default: '127.0.0.1', description: 'Interface to listen on.' },
  { name: 'GATEHOUSE_PUBLIC_URL', default: 'http://localhost:<PORT>', description: 'URL browsers use to reach this server; token issuer and base of public links.' },
  { name: 'GATEHOUSE_DATA_DIR', default: './data', description: 'Folder of the SQLite file `gatehouse.db` (created if missing).' },
  { name: 'DATABASE_URL', default: '(unset)', description: 'postgres://... to use PostgreSQL instead of SQLite.' },
  { name: 'DATABASE_SCHEMA', default: '(unset)', description: 'PostgreSQL schema to use (search_path); created if missing.' },
  { name: 'DATABASE_PREPARED_STATEMENTS', default: 'true', description: 'PostgreSQL: each pooled connection prepares a statement once and then only runs it, which saves most of PostgreSQL\'s CPU per request. Set false behind a pooler that shares sessions between servers (PgBouncer in transaction mode before 1.21).' },
  { name: 'GATEHOUSE_SQLITE_SYNCHRONOUS', default: 'normal', description: 'When SQLite (WAL mode) waits for the disk: `normal` at each checkpoint, so a power loss or OS crash may undo the last commits (never corrupts; a process crash loses nothing); `full` at every commit, about 10 times the cost of each write. See docs/scaling.md.' },
  { name: 'GATEHOUSE_CLIENT_ID', default: 'demo-client', description: 'Client id: access-token audience and refresh-cookie name suffix.' },
  { name: 'GATEHOUSE_ALLOWED_ORIGINS', default: 'origin of the public URL', description: 'Comma-separated origins allowed to call the API with credentials (CORS) and to post to cookie endpoints.' },
  { name: 'GATEHOUSE_APP_URL', default: 'the public URL', description: 'Where links in emails point, unless the request came from an allowed origin.' },
  { name: 'GATEHOUSE_APP_NAME', default: 'Gatehouse', description: "The product's name where no tenant name applies: the sender name of emails to users in no tenant, and the authenticator-app entry of such users (otherwise both use the tenant's account name)." },
  { name: 'ACCESS_TOKEN_TTL', default: '300', description: 'Access-token lifetime in seconds.' },
  { name: 'REFRESH_TOKEN_TTL', default: '2592000', description: 'Refresh-token (session) lifetime in seconds.' },
  { name: 'ACTIVATION_TOKEN_TTL', default: '86400', description: 'Activation-link lifetime in seconds.' },
  { name: 'SMTP_URL', default: '(unset)', description: 'smtp(s)://user:pass@host:port for real mail; unset keeps mail in the dev outbox.' },
  { name: 'MAIL_FROM', default: 'Gatehouse <no-reply@localhost>', description: 'Sender of every email.' },
  { name: 'RESET_PASSWORD_TOKEN_TTL', default: '1800', description: 'Password-reset link lifetime in seconds (single use; a newer request kills older links).' },
  { name: 'RESET_PASSWORD_SMS_CODE_TTL', default: '300', description: 'Password-reset SMS code lifetime in seconds (single use, 5 attempts).' },
  { name: 'SMS_HTTP_URL', default: '(unset)', description: 'http(s) endpoint of an SMS provider: each SMS is a POST of JSON `{"to","body"}`; unset keeps SMS in the dev outbox.' },
  { name: 'SMS_HTTP_TOKEN', default: '(unset)', description: 'Sent as `Authorization: Bearer <token>` to SMS_HTTP_URL.' },
  { name: 'SLACK_CLIENT_ID', default: '(unset)', description: "Client ID of the operator's Slack app (Basic Information page); with SLACK_CLIENT_SECRET it lets tenant admins connect a Slack workspace as a notification channel (docs/connectivity.md). Set both or neither." },
  { name: 'SLACK_CLIENT_SECRET', default: '(unset)', description: "Client secret of the Slack app; sent only to Slack's oauth.v2.access." },
  { name: 'SLACK_API_BASE_URL', default: 'https://slack.com/api', description: "Base URL of Slack's Web API (oauth.v2.access, conversations.list, chat.postMessage, auth.revoke); tests point it at a local Slack-compatible server." },
  { name: 'SLACK_OAUTH_AUTHORIZE_URL', default: 'https://slack.com/oauth/v2/authorize', description: "Slack's authorize page, where the portal sends an admin to approve the app." },
  { name: 'SLACK_REDIRECT_URL', default: "(unset: the Slack app's configured redirect URL)", description: "Where Slack sends the admin back with `code` and `state` (the portal's Connectivity page); must be one of the app's Redirect URLs. Sent as redirect_uri on both legs of the OAuth flow." },
  { name: 'CONNECTIVITY_LEASE_MS', default: '60000', description: 'How long (ms, at least 1000) a server process holds a claimed event or delivery job (webhook, email, SMS, Slack, report); a process killed mid-way loses nothing, its claims are taken over when the lease runs out. Keep it above the 15 s webhook timeout, or a slow delivery may be made twice.' },
  { name: 'STRIPE_API_URL', default: '(unset: https://api.stripe.com)', description: "Where billing calls Stripe: an http(s) origin whose host, port and protocol the Stripe SDK uses, e.g. `http://127.0.0.1:8420` for the localstripe emulator in tests. Stripe's keys are the operator's billing configuration (docs/billing.md), not variables." },
  { name: 'GATEHOUSE_DEV', default: '0', description: "'1' turns on dev mode (demo page, /dev/mailbox); always off when NODE_ENV=production." },
  { name: 'GATEHOUSE_SIGNING_ALG', default: 'ES256', description: 'ES256 or RS256 (2048-bit keys) for access tokens.' },
  { name: 'GATEHOUSE_KEY_ENCRYPTION_KEY', default: '(unset)', description: '64 hex characters; when set, private signing keys are stored AES-256-GCM encrypted.' },
  { name: 'COOKIE_SAMESITE', default: 'lax', description: 'lax, strict or none (none forces Secure).' },
  { name: 'COOKIE_SECURE', default: 'auto', description: 'auto (Secure when the public URL is https or localhost), true or false.' },
  { name: 'MAX_BODY_BYTES', default: '1048576', description: "Largest request body; bigger ones get 413 'Error request is too large'." },
  { name: 'GATEHOUSE_CDN_DIR', default: './dist/cdn', description: 'Folder served at /cdn (relative to the working directory).' },
  { name: 'GATEHOUSE_CDN_MANIFEST_MAX_AGE', default: '30', description: 'Seconds (0 to 60) browsers and CDNs may keep /cdn/cdn-manifest.json: a rollout change reaches new page loads within this plus the 15 s rollout refresh of each server process (docs/cdn.md).' },
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
  { name: 'PASSWORD_HISTORY_SIZE', default: '0', description: "Password history: a new password may not repeat any of the user's last N passwords (1 to 24; the current one counts), checked at reset, change, rotation and activation. 0 turns the vendor's history off; each tenant may still turn it on, or ask for more, in its password-history policy." },
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
  { name: 'SESSION_IDLE_TIMEOUT', default: '0', description: "Idle timeout in seconds (60 to 31536000): a session that has not refreshed for that long ends at its next refresh. 0 turns it off. The floor of every tenant's sessions policy: a tenant may shorten it, never lengthen or turn it off." },
  { name: 'SESSION_FORCE_RELOGIN', default: '0', description: "Forced re-login in seconds (60 to 31536000): a session older than that (counted from its sign-in) ends at its next refresh. 0 turns it off. A tenant's sessions policy may shorten it, never lengthen or turn it off." },
  { name: 'SESSION_MAX_CONCURRENT', default: '0', description: "Concurrent sessions per user and tenant (1 to 100): a sign-in beyond it signs out the user's oldest sessions there. 0 turns it off. A tenant's sessions policy may lower it, never raise or turn it off. Counted in the database, so every server process agrees." },
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

/** Markdown table of CONFIG_OPTIONS; docs/configuration.md holds its output. */
export function renderConfigTable(): string {
  const rows = CONFIG_OPTIONS.map((o) => `| \`${o.name}\` | ${o.default.includes('<') ? o.default.replace(/</g, '&lt;') : `\`${o.default}\``} | ${o.description} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
