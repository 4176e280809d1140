/**
 * The policies of the Security section's sessionManagement and generalSettings tabs (issue 12; seed
 * 001 sections 3, 5, 7): each card's endpoint, fields and bounds. Bounds follow the wire schemas in
 * shared/src/wire/security/policies.ts; the server still checks each value and the vendor's floor.
 */
import { PASSWORD_HISTORY_MAX, SecurityPaths } from '@gatehouse/shared/admin-paths';
import type { FieldSpec, PolicySpec } from './policy-form';

const TEN_YEARS = 10 * 365 * 86_400;
const YEAR = 365 * 86_400;

const timeoutFields = (prefix: string, toggle: string, timeout: string, hint: string): FieldSpec[] => [
  { kind: 'toggle', path: `${prefix}.isActive`, name: `${prefix}.isActive`, label: toggle },
  { kind: 'duration', path: `${prefix}.timeout`, name: `${prefix}.timeout`, label: timeout, hint, min: 60, max: YEAR, units: ['minutes', 'hours', 'days'] },
];

/** The sessionManagement tab: one policy, three settings (the names targets use: idleTimeout, forceRelogin, maxConcurrentSessions). */
export const SESSIONS_SPEC: PolicySpec = {
  name: 'sessions',
  title: 'security.sessions.title',
  description: 'security.sessions.description',
  savedMessage: 'security.sessions.saved',
  path: SecurityPaths.sessionsPolicy,
  method: 'post',
  groups: [
    { name: 'idleTimeout', legend: 'security.sessions.idle.legend', hint: 'security.sessions.idle.hint', fields: timeoutFields('sessionIdleTimeoutConfiguration', 'security.sessions.idle.toggle', 'security.sessions.idle.timeout', 'security.sessions.idle.timeoutHint') },
    { name: 'forceRelogin', legend: 'security.sessions.relogin.legend', hint: 'security.sessions.relogin.hint', fields: timeoutFields('sessionTimeoutConfiguration', 'security.sessions.relogin.toggle', 'security.sessions.relogin.timeout', 'security.sessions.relogin.timeoutHint') },
    {
      name: 'maxConcurrentSessions',
      legend: 'security.sessions.concurrent.legend',
      hint: 'security.sessions.concurrent.hint',
      fields: [
        { kind: 'toggle', path: 'sessionConcurrentConfiguration.isActive', name: 'sessionConcurrentConfiguration.isActive', label: 'security.sessions.concurrent.toggle' },
        { kind: 'number', path: 'sessionConcurrentConfiguration.maxSessions', name: 'sessionConcurrentConfiguration.maxSessions', label: 'security.sessions.concurrent.max', hint: 'security.sessions.concurrent.maxHint', min: 1, max: 100 },
      ],
    },
  ],
};

const card = (name: string, path: string, fields: FieldSpec[], extra: Partial<PolicySpec> = {}): PolicySpec => ({
  name,
  title: `security.${name}.title`,
  description: `security.${name}.description`,
  savedMessage: `security.${name}.saved`,
  path,
  method: 'saveById',
  groups: [{ fields }],
  ...extra,
});

/** The generalSettings tab: one card per policy, in the order. Field names in fieldVisibility are `<card>.<field>`. */
export const GENERAL_SPECS: readonly PolicySpec[] = [
  card('mfa', SecurityPaths.mfaPolicy, [
    {
      kind: 'choice',
      path: 'enforceMFAType',
      name: 'mfa.enforceMFAType',
      label: 'security.mfa.enforce',
      choices: [
        { value: 'DontForce', label: 'security.mfa.enforce.DontForce' },
        { value: 'Force', label: 'security.mfa.enforce.Force' },
        { value: 'ForceExceptSAML', label: 'security.mfa.enforce.ForceExceptSAML' },
      ],
    },
    { kind: 'toggle', path: 'allowRememberMyDevice', name: 'mfa.allowRememberMyDevice', label: 'security.mfa.remember' },
    { kind: 'duration', path: 'mfaDeviceExpiration', name: 'mfa.mfaDeviceExpiration', label: 'security.mfa.expiration', hint: 'security.mfa.expirationHint', min: 0, max: TEN_YEARS, units: ['days'] },
  ]),
  card('lockout', SecurityPaths.lockoutPolicy, [
    { kind: 'toggle', path: 'enabled', name: 'lockout.enabled', label: 'security.lockout.enabled' },
    { kind: 'number', path: 'maxAttempts', name: 'lockout.maxAttempts', label: 'security.lockout.maxAttempts', hint: 'security.lockout.maxAttemptsHint', min: 1, max: 100 },
  ]),
  card('passwordHistory', SecurityPaths.passwordHistoryPolicy, [
    { kind: 'toggle', path: 'enabled', name: 'passwordHistory.enabled', label: 'security.passwordHistory.enabled' },
    { kind: 'number', path: 'historySize', name: 'passwordHistory.historySize', label: 'security.passwordHistory.historySize', hint: 'security.passwordHistory.historySizeHint', min: 1, max: PASSWORD_HISTORY_MAX },
  ]),
  card(
    'password',
    SecurityPaths.passwordPolicy,
    [
      { kind: 'number', path: 'minLength', name: 'password.minLength', label: 'security.password.minLength', min: 1, max: 128 },
      { kind: 'number', path: 'maxLength', name: 'password.maxLength', label: 'security.password.maxLength', min: 1, max: 1024 },
      { kind: 'toggle', path: 'allowPassphrases', name: 'password.allowPassphrases', label: 'security.password.allowPassphrases' },
      { kind: 'number', path: 'minPhraseLength', name: 'password.minPhraseLength', label: 'security.password.minPhraseLength', hint: 'security.password.minPhraseLengthHint', min: 1, max: 128 },
      { kind: 'number', path: 'minOptionalTestsToPass', name: 'password.minOptionalTestsToPass', label: 'security.password.minOptionalTestsToPass', hint: 'security.password.minOptionalTestsToPassHint', min: 0, max: 4 },
    ],
    { crossCheck: (body): Record<string, string> => (Number(body.minLength) > Number(body.maxLength) ? { maxLength: 'security.error.maxBelowMin' } : {}) },
  ),
  card(
    'passwordRotation',
    SecurityPaths.passwordRotation,
    [
      { kind: 'number', path: 'passwordExpiresIn', name: 'passwordRotation.passwordExpiresIn', label: 'security.passwordRotation.expiresIn', hint: 'security.passwordRotation.expiresInHint', min: 0, max: 3650, suffix: 'security.unit.daysSuffix' },
      { kind: 'number', path: 'notificationPeriod', name: 'passwordRotation.notificationPeriod', label: 'security.passwordRotation.notificationPeriod', hint: 'security.passwordRotation.notificationPeriodHint', min: 0, max: 3650, suffix: 'security.unit.daysSuffix' },
    ],
    { quietLoadFailure: true },
  ),
  card(
    'captcha',
    SecurityPaths.captchaPolicy,
    [
      { kind: 'toggle', path: 'enabled', name: 'captcha.enabled', label: 'security.captcha.enabled' },
      { kind: 'number', path: 'minScore', name: 'captcha.minScore', label: 'security.captcha.minScore', hint: 'security.captcha.minScoreHint', min: 0, max: 1, step: 0.1 },
    ],
    { quietLoadFailure: true },
  ),
  card('userEmails', SecurityPaths.userEmailsPolicy, [
    { kind: 'toggle', path: 'allowEmailChange', name: 'userEmails.allowEmailChange', label: 'security.userEmails.allowEmailChange' },
    { kind: 'toggle', path: 'requireVerifiedEmailForLogin', name: 'userEmails.requireVerifiedEmailForLogin', label: 'security.userEmails.requireVerified' },
  ]),
];
