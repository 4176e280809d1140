/**
 * Seed 000 section 1 and seed 001 section 1: the sample data of preview mode (`previewMode: true`).
 * Roles Admin, ReadOnly and Support; 10 users over 2 pages; audits; the security center; password
 * limits 6..128; the flags previews force on. Typed with the wire types, so a contract change breaks
 * them at compile time. Nothing here is a secret: preview sign-in accepts any address.
 */
import type { LoginResponse, MeResponse, PasswordConfig } from '../wire';
import type { Permission, Role } from '../wire/admin/roles';
import type { TenantUser } from '../wire/admin/users';
import type { AuditRecord } from '../wire/admin/audits';
import type { InsightsResponse, RecommendationsResponse, ScoreHistoryResponse } from '../wire/security/security-center';
import type { LockoutPolicy, MfaPolicy, PasswordHistoryPolicy, SessionsPolicy, TenantCaptchaPolicy } from '../wire/security/policies';

/** Seed 001 section 1: simulated delays of preview actions (reads, then writes). */
export const PREVIEW_DELAYS = { read: 200, write: 500 } as const;
/** Seed 001 section 1: "10 mock users over 2 pages". */
export const PREVIEW_USERS_PAGE_SIZE = 5;
/** Seed 001 section 1: mock password limits. */
export const PREVIEW_PASSWORD_CONFIG: PasswordConfig = { allowPassphrases: false, minLength: 6, maxLength: 128, minPhraseLength: 20, minOptionalTestsToPass: 0 };

/**
 * Seed 000 section 6 / seed 001 section 3: the flags previews force on (IP restrictions, domain
 * restrictions, new MFA pages, new passkeys, new groups box, new MSP all-accounts, temporary users),
 * and the security center's own flags so its whole page shows.
 */
export const PREVIEW_FORCED_FLAGS: Readonly<Record<string, 'on'>> = {
  'admin-portal-ip-restrictions': 'on',
  'admin-portal-domain-restrictions': 'on',
  'admin-portal-new-mfa-pages': 'on',
  'show-passkeys-new': 'on',
  'admin-portal-new-groups-box': 'on',
  'admin-portal-new-msp-all-accounts': 'on',
  'admin-portal-temporary-users': 'on',
  'security-center-show-login-flows': 'on',
  'security-center-admin-portal-major-version': 'on',
};

export const PREVIEW_TENANT_ID = 'preview-tenant';
const CREATED = '2026-01-01T09:00:00.000Z';

export const PREVIEW_PERMISSIONS: readonly Permission[] = [
  { id: 'preview-perm-users-read', key: 'fe.secure.read.users', name: 'Read users', description: null, categoryId: null },
  { id: 'preview-perm-users-write', key: 'fe.secure.write.users', name: 'Manage users', description: null, categoryId: null },
  { id: 'preview-perm-roles-read', key: 'fe.secure.read.roles', name: 'Read roles', description: null, categoryId: null },
  { id: 'preview-perm-audits-read', key: 'fe.secure.read.audits', name: 'Read audits', description: null, categoryId: null },
  { id: 'preview-perm-all', key: 'fe.*', name: 'Everything', description: null, categoryId: null },
];

const role = (id: string, key: string, name: string, description: string, permissions: string[], isDefault = false): Role => ({
  id, key, name, description, isDefault, permissions, tenantId: PREVIEW_TENANT_ID, userCount: 0, createdAt: CREATED,
});

/** Seed 001 section 1: roles Admin, ReadOnly and Support. */
export const PREVIEW_ROLES: readonly Role[] = [
  role('preview-role-admin', 'Admin', 'Admin', 'Manages the account', ['preview-perm-all']),
  role('preview-role-readonly', 'ReadOnly', 'ReadOnly', 'Reads everything, changes nothing', ['preview-perm-users-read', 'preview-perm-roles-read', 'preview-perm-audits-read'], true),
  role('preview-role-support', 'Support', 'Support', 'Helps users', ['preview-perm-users-read', 'preview-perm-users-write']),
];

const NAMES = ['Ada Admin', 'Ben Baker', 'Cleo Chen', 'Dev Desai', 'Eli Evans', 'Fay Fischer', 'Gus Garcia', 'Hana Hill', 'Ivo Ivanov', 'Jo Jensen'] as const;

/** Seed 001 section 1: 10 mock users (the first is the signed-in preview admin). */
export const PREVIEW_USERS: readonly TenantUser[] = NAMES.map((name, i) => {
  const r = PREVIEW_ROLES[i === 0 ? 0 : i % 3]!;
  const day = String(1 + i).padStart(2, '0');
  return {
    id: `preview-user-${i + 1}`,
    email: `${name.split(' ')[0]!.toLowerCase()}@preview.example`,
    name,
    phoneNumber: null,
    profilePictureUrl: null,
    tenantId: PREVIEW_TENANT_ID,
    roleIds: [r.id],
    roles: [{ id: r.id, key: r.key, name: r.name }],
    groups: [],
    verified: i !== 7,
    isLocked: i === 5,
    isDisabled: false,
    invitationPending: i === 7,
    temporaryExpirationDate: null,
    mfaEnrolled: i % 2 === 0,
    isBreachedPassword: i === 4,
    provider: 'local',
    managedBy: 'frontegg',
    superUser: false,
    createdAt: `2026-01-${day}T09:00:00.000Z`,
    joinedAt: `2026-01-${day}T09:00:00.000Z`,
    lastSeen: i === 7 ? null : `2026-02-${day}T10:00:00.000Z`,
  };
});

const ACTIONS: ReadonlyArray<[string, string, string]> = [
  ['User signed in', 'Ada Admin signed in', 'Info'],
  ['User invited', 'Ada Admin invited jo@preview.example', 'Info'],
  ['Role updated', 'Ada Admin changed the permissions of Support', 'Info'],
  ['Failed sign-in', 'Wrong password for fay@preview.example', 'High'],
  ['User locked', 'fay@preview.example was locked after failed sign-ins', 'High'],
  ['MFA enrolled', 'cleo@preview.example enrolled an authenticator app', 'Info'],
];

/** Sample audit log rows, newest first. */
export const PREVIEW_AUDITS: readonly AuditRecord[] = Array.from({ length: 24 }, (_, i) => {
  const [action, description, severity] = ACTIONS[i % ACTIONS.length]!;
  return {
    id: `preview-audit-${i + 1}`,
    createdAt: new Date(Date.UTC(2026, 1, 20, 12) - i * 3_600_000).toISOString(),
    email: PREVIEW_USERS[i % PREVIEW_USERS.length]!.email,
    action,
    description,
    ip: `203.0.113.${10 + (i % 5)}`,
    severity,
    userAgent: 'Mozilla/5.0 (preview)',
    json: null,
    tenantId: PREVIEW_TENANT_ID,
  };
});

/** The security center's sample answers. */
export const PREVIEW_SECURITY_CENTER: { recommendations: RecommendationsResponse; insights: InsightsResponse; scoreHistory: ScoreHistoryResponse } = {
  recommendations: {
    score: 62,
    level: 'Good',
    recommendations: [
      { code: 'FORCE_MFA', severity: 'SEVERE', category: 'MFA', description: 'Require multi-factor authentication for every user', points: 20 },
      { code: 'BREACHED_PASSWORDS_EXIST', severity: 'WARNING', category: 'PASSWORD', description: 'Ask users with breached passwords to reset them', points: 8, action: 'SEND_RESET_BREACHED_PASSWORD_EMAIL', affectedUsers: 1 },
      { code: 'ENABLE_IP_RESTRICTIONS', severity: 'INFO', category: 'IP', description: 'Allow sign-in only from known addresses', points: 5 },
    ],
  },
  insights: {
    insights: [
      { code: 'PARTIAL_MFA_USAGE', category: 'MFA', description: '5 of 10 users use MFA', data: { enrolled: 5, total: 10 } },
      { code: 'BREACHED_PASSWORD_USERS_EXIST', category: 'PASSWORD', description: '1 user has a breached password', data: { users: 1 } },
      { code: 'NO_IP_RESTRICTIONS', category: 'IP', description: 'No IP restrictions are set' },
    ],
  },
  scoreHistory: {
    points: Array.from({ length: 30 }, (_, i) => ({ day: new Date(Date.UTC(2026, 0, 22 + i)).toISOString().slice(0, 10), score: 40 + Math.round((22 * i) / 29) })),
  },
};

/** The account's security policies as the security center and the Security section read them. */
export const PREVIEW_POLICIES: { mfa: MfaPolicy; lockout: LockoutPolicy; passwordHistory: PasswordHistoryPolicy; captcha: TenantCaptchaPolicy; sessions: SessionsPolicy } = {
  mfa: { enforceMFAType: 'DontForce', allowRememberMyDevice: true, mfaDeviceExpiration: 14 * 86_400 },
  lockout: { enabled: true, maxAttempts: 5 },
  passwordHistory: { enabled: false, historySize: 1 },
  captcha: { enabled: false, minScore: 0.5 },
  sessions: {
    sessionIdleTimeoutConfiguration: { isActive: false, timeout: 3600 },
    sessionTimeoutConfiguration: { isActive: true, timeout: 30 * 86_400 },
    sessionConcurrentConfiguration: { isActive: false, maxSessions: 10 },
  },
};

/** The signed-in preview user: Ada, Admin of the preview tenant. */
export const PREVIEW_ME: MeResponse = {
  id: PREVIEW_USERS[0]!.id,
  email: PREVIEW_USERS[0]!.email,
  name: PREVIEW_USERS[0]!.name,
  username: null,
  verified: true,
  tenantId: PREVIEW_TENANT_ID,
  tenantIds: [PREVIEW_TENANT_ID],
  tenants: [{ id: PREVIEW_TENANT_ID, tenantId: PREVIEW_TENANT_ID, name: 'Preview Inc.', createdAt: CREATED }],
  phoneNumber: null,
  address: null,
  jobTitle: 'Administrator',
  profilePictureUrl: null,
  roles: [{ id: 'preview-role-admin', key: 'Admin', name: 'Admin' }],
  permissions: [{ id: 'preview-perm-all', key: 'fe.*', name: 'Everything' }],
  superUser: false,
  mfaEnrolled: true,
  metadata: null,
  createdAt: CREATED,
  lastLogin: CREATED,
};

/** A sign-in answer for the preview user; the token is a marker, never a JWT anyone checks. */
export function previewLogin(now: number): LoginResponse {
  const expiresIn = 86_400;
  return { accessToken: 'preview-access-token', expiresIn, expires: new Date(now + expiresIn * 1000).toUTCString(), mfaRequired: false, tenantId: PREVIEW_TENANT_ID, userId: PREVIEW_ME.id };
}
