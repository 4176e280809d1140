/**
 * Preview mode's API (seed 000 section 1, seed 001 section 1): a `fetch` the API client uses in place
 * of the network. It answers the identity API's calls from the sample data, keeps the changes a
 * visitor makes for the life of the page, waits the seed's simulated delays (200 ms for reads,
 * 500 ms for writes), and never calls the real fetch: a call it does not know gets a 404 naming it.
 */
import { ApiPaths } from '../wire/paths';
import { SSO_PRELOGIN_PATH } from '../wire/sso/prelogin-path';
import { AdminPaths } from '../wire/admin/paths';
import { AuditPaths, AUDIT_COLUMNS } from '../wire/admin/audit-paths';
import { SecurityPaths } from '../wire/security/paths';
import type { MeResponse, VendorPublicConfig } from '../wire';
import type { AuditRecord } from '../wire/admin/audits';
import type { CaptchaPolicyResponse } from '../wire/platform/captcha';
import type { TenantUser } from '../wire/admin/users';
import type { SignUpResponse } from '../wire/users/signup';
import type { PasswordRecoveryStrategiesResponse } from '../wire/recovery/recovery';
import { billingRoutes } from './billing-routes';
import { PREVIEW_PASSWORD_POLICIES, PREVIEW_VISITOR_IP } from './admin-sample-data';
import { apiTokenRoutes, groupRoutes, ssoRoutes } from './account-routes';
import { restrictionRoutes } from './restriction-routes';
import { accountSettingsRoutes } from './account-settings-routes';
import { privacyRoutes } from './privacy-routes';
import { roleRoutes } from './role-routes';
import { teamRoutes } from './team-routes';
import type { Role } from '../wire/admin/roles';
import { fail, ids, noContent, ok, roleSummaries, text, type Answer, type Handler, type PreviewState, type Route } from './routes';
import {
  PREVIEW_AUDITS, PREVIEW_DELAYS, PREVIEW_FORCED_FLAGS, PREVIEW_ME, PREVIEW_PASSWORD_CONFIG, PREVIEW_PERMISSIONS, PREVIEW_POLICIES, PREVIEW_ROLES,
  PREVIEW_SECURITY_CENTER, PREVIEW_TENANT_ID, PREVIEW_USERS, PREVIEW_USERS_PAGE_SIZE, previewLogin,
} from './sample-data';

export interface PreviewApiOptions {
  /** `contextOptions.baseUrl`: calls under it are answered; anything else gets a 404. */
  baseUrl: string;
  /** Starts signed in as the preview admin (default true). */
  signedIn?: boolean;
  now?: () => number;
  /** How the simulated delays wait (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
}

/** The preview session the runtime hydrates the store with. */
export function previewSession(now: number): { login: ReturnType<typeof previewLogin>; me: MeResponse } {
  return { login: previewLogin(now), me: structuredClone(PREVIEW_ME) };
}

const NO_CAPTCHA: CaptchaPolicyResponse = { enabled: false, siteKey: null, minScore: 0.5, scriptUrl: null };

/** `/a/{id}/b` -> a matcher that captures `id`. */
function compile(template: string): (path: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const re = new RegExp(`^${source}$`);
  return (path) => {
    const m = re.exec(path);
    if (!m) return null;
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]));
  };
}

/** Creates one preview API: its own copy of the sample data, changed by what the visitor does. */
export function createPreviewFetch(options: PreviewApiOptions): typeof globalThis.fetch {
  const base = new URL(options.baseUrl.replace(/\/+$/, '') + '/');
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let signedIn = options.signedIn !== false;
  let me: MeResponse = structuredClone(PREVIEW_ME);
  let users: TenantUser[] = structuredClone([...PREVIEW_USERS]);
  const audits: AuditRecord[] = structuredClone([...PREVIEW_AUDITS]);
  let nextId = 1;

  /** Every simulated change is written to the sample audit log, as a real one would be. */
  const audit = (action: string, description: string) =>
    audits.unshift({ id: `preview-audit-new-${nextId++}`, createdAt: new Date(now()).toISOString(), email: me.email, action, description, ip: PREVIEW_VISITOR_IP, severity: 'Info', userAgent: 'Mozilla/5.0 (preview)', json: null, tenantId: PREVIEW_TENANT_ID });
  const state: PreviewState = {
    now, audit, me: () => me, users: () => users, roles: () => roleList,
    newId: (kind) => `preview-${kind}-new-${nextId++}`,
    iso: () => new Date(now()).toISOString(),
  };
  const roleList: Role[] = structuredClone([...PREVIEW_ROLES]);
  const roles = () => roleList.map((r) => ({ ...r, userCount: users.filter((u) => u.roleIds.includes(r.id)).length }));
  const vendor: VendorPublicConfig = {
    name: 'Preview',
    allowSignUps: true,
    loginStrategy: 'EmailAndPassword',
    signUpStrategies: { email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } },
    passwordConfig: PREVIEW_PASSWORD_CONFIG,
  };
  /** Seed 001's mock password limits, for sign-in and sign-up alike; null when the password is within them. */
  const passwordProblem = (body: Record<string, unknown>): string | null => {
    const password = typeof body.password === 'string' ? body.password : '';
    return password.length < PREVIEW_PASSWORD_CONFIG.minLength || password.length > PREVIEW_PASSWORD_CONFIG.maxLength
      ? `The password must be ${PREVIEW_PASSWORD_CONFIG.minLength} to ${PREVIEW_PASSWORD_CONFIG.maxLength} characters long`
      : null;
  };
  /** Adds an invited user (pending, unverified) with these roles, or the default role; or says why not. */
  const invite = (rawEmail: string, name: string, roleIds: readonly string[]): TenantUser | string => {
    const email = rawEmail.toLowerCase();
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) return 'email must be an email address';
    if (users.some((u) => u.email === email)) return USER_EXISTS;
    const when = state.iso();
    // Like the server: without roles, the account's default role.
    const wanted = roleIds.filter((id) => roleList.some((r) => r.id === id));
    const given = wanted.length > 0 ? wanted : roleList.filter((r) => r.isDefault).map((r) => r.id);
    const invited: TenantUser = { ...structuredClone(PREVIEW_USERS[1]!), id: state.newId('user'), email, name: name || email, roleIds: given, roles: roleSummaries(state, given), verified: false, invitationPending: true, isLocked: false, mfaEnrolled: false, isBreachedPassword: false, createdAt: when, joinedAt: when, lastSeen: null };
    users.push(invited);
    audit('User invited', `${email} was invited`);
    return invited;
  };
  const session: Handler = () => (signedIn ? ok(previewLogin(now())) : fail(401, 'Session not found'));
  const user = (id: string) => users.find((u) => u.id === id);

  const routes: Route[] = [
    ['GET', ApiPaths.flags, () => ok(PREVIEW_FORCED_FLAGS)],
    ['GET', ApiPaths.metadata, () => ok({ rows: [] })],
    ['GET', ApiPaths.vendorPublic, () => ok(vendor)],
    ['GET', ApiPaths.passwordsConfig, () => ok(PREVIEW_PASSWORD_CONFIG)],
    // No captcha and no enterprise SSO in preview: the password step follows the email at once.
    ['GET', ApiPaths.captchaPolicyPublic, () => ok(NO_CAPTCHA)],
    ['POST', SSO_PRELOGIN_PATH, () => ok({ address: null, type: null })],
    ['POST', ApiPaths.login, ({ body }) => {
      if (!text(body, 'email')) return fail(400, 'email is required');
      const problem = passwordProblem(body);
      if (problem) return fail(400, problem);
      signedIn = true;
      return ok({ ...previewLogin(now()), userId: me.id });
    }],
    // Sign-up: a simulated account, Admin of the preview account, signed in at once (no activation email).
    ['POST', ApiPaths.signUp, ({ body }) => {
      const email = text(body, 'email').toLowerCase();
      if (!EMAIL.test(email)) return fail(400, 'email must be an email address');
      const problem = passwordProblem(body);
      if (problem) return fail(400, problem);
      if (users.some((u) => u.email === email)) return fail(409, 'User already exists');
      const id = state.newId('user');
      const name = text(body, 'name') || email;
      const when = state.iso();
      const admin = roleList.find((r) => r.key === 'Admin') ?? PREVIEW_ROLES[0]!;
      users.push({ ...structuredClone(PREVIEW_USERS[0]!), id, email, name, roleIds: [admin.id], roles: [{ id: admin.id, key: admin.key, name: admin.name }], mfaEnrolled: false, createdAt: when, joinedAt: when, lastSeen: when });
      me = { ...structuredClone(PREVIEW_ME), id, email, name, jobTitle: null, mfaEnrolled: false, createdAt: when, lastLogin: when };
      signedIn = true;
      audit('User signed up', `${email} signed up`);
      const answer: SignUpResponse = { shouldActivate: false, userId: id, tenantId: PREVIEW_TENANT_ID, authResponse: { ...previewLogin(now()), userId: id } };
      return ok(answer);
    }],
    // Forgot password: the email channel only, and "sent" is simulated (no email, so no reset link to follow).
    ['GET', ApiPaths.passwordRecoveryStrategies, () => ok(RECOVERY_STRATEGIES)],
    ['POST', ApiPaths.passwordsResetEmailV2, ({ body }) => (text(body, 'identifier') ? ok({}) : fail(400, 'identifier is required'))],
    ['POST', ApiPaths.passwordsReset, ({ body }) => (text(body, 'email') ? ok({}) : fail(400, 'email is required'))],
    ['POST', ApiPaths.refresh, session],
    ['POST', ApiPaths.logout, () => ((signedIn = false), ok({}))],
    ['GET', ApiPaths.me, () => (signedIn ? ok(me) : fail(401, 'Unauthorized'))],
    ['PUT', ApiPaths.me, ({ body }) => {
      const changes = Object.fromEntries(['name', 'phoneNumber', 'address', 'jobTitle'].filter((k) => k in body).map((k) => [k, body[k]]));
      me = { ...me, ...changes };
      audit('Profile updated', `${me.name} updated their profile`);
      return ok(me);
    }],
    ['GET', ApiPaths.meTenantsV3, () => ok({ tenants: me.tenants, activeTenant: me.tenants[0] })],
    ['GET', AdminPaths.teamMembers, ({ query }) => {
      const page = Math.max(0, Number(query.get('pageOffset') ?? 0) || 0);
      const filter = (query.get('filter') ?? '').toLowerCase();
      const matching = users
        .filter((u) => !filter || u.name.toLowerCase().includes(filter) || (u.email ?? '').includes(filter))
        .sort((a, b) => a.name.localeCompare(b.name) * (query.get('sortDirection') === 'desc' ? -1 : 1));
      const size = PREVIEW_USERS_PAGE_SIZE;
      return ok({ items: matching.slice(page * size, page * size + size), _metadata: { totalItems: matching.length, totalPages: Math.ceil(matching.length / size) } });
    }],
    ['PUT', AdminPaths.teamMembers, ({ body }) => {
      const target = user(String(body.id));
      if (!target) return fail(404, 'User not found');
      const roleIds = ids(body, 'roleIds').filter((id) => roleList.some((r) => r.id === id));
      target.roleIds = roleIds;
      target.roles = roleSummaries(state, roleIds);
      audit('User roles updated', `Roles of ${target.email} changed`);
      return ok(target);
    }],
    ['DELETE', AdminPaths.teamMember, ({ params }) => {
      const target = user(params.userId!);
      if (!target) return fail(404, 'User not found');
      users = users.filter((u) => u !== target);
      audit('User removed', `${target.email} was removed`);
      return noContent;
    }],
    // Lock, unlock, disable and enable a user of the account (not the preview user: the portal offers it no such action).
    ...([
      [AdminPaths.tenantUserLock, 'isLocked', true, 'locked'],
      [AdminPaths.tenantUserUnlock, 'isLocked', false, 'unlocked'],
      [AdminPaths.tenantUserDisable, 'isDisabled', true, 'disabled'],
      [AdminPaths.tenantUserEnable, 'isDisabled', false, 'enabled'],
    ] as const).map(([path, field, value, done]): Route => ['POST', path, ({ params }) => {
      const target = user(params.userId!);
      if (!target) return fail(404, 'User not found');
      target[field] = value;
      audit(`User ${done}`, `${target.email} was ${done}`);
      return ok(target);
    }]),
    ['POST', ApiPaths.inviteUser, ({ body }) => {
      const result = invite(text(body, 'email'), text(body, 'name'), ids(body, 'roleIds'));
      return typeof result === 'string' ? fail(result === USER_EXISTS ? 409 : 400, result) : { status: 201, body: { id: result.id } };
    }],
    // Bulk invite: each address on its own; the ones refused say why (seed 001 section 5).
    ['POST', AdminPaths.bulkInvite, ({ body }) => {
      const emails = ids(body, 'emails');
      if (emails.length === 0 || emails.length > 100) return fail(400, 'emails must list 1 to 100 addresses');
      const allowed: Array<{ email: string; userId: string }> = [];
      const unallowed: Array<{ email: string; reason: string }> = [];
      for (const email of emails) {
        const result = invite(email, '', ids(body, 'roleIds'));
        if (typeof result === 'string') unallowed.push({ email, reason: result });
        else allowed.push({ email: result.email!, userId: result.id });
      }
      return ok({ allowed, unallowed });
    }],
    ['GET', AdminPaths.teamRoles, () => ok({ roles: roles(), permissions: PREVIEW_PERMISSIONS })],
    ['GET', AdminPaths.rolesV1, () => ok(roles())],
    ['GET', AdminPaths.permissions, () => ok(PREVIEW_PERMISSIONS)],
    ['GET', AdminPaths.permissionCategories, () => ok([])],
    ['GET', AuditPaths.audits, ({ query }) => {
      const offset = Math.max(0, Number(query.get('offset') ?? 0) || 0);
      const count = Math.min(100, Math.max(1, Number(query.get('count') ?? 20) || 20));
      const severity = query.get('severity');
      const rows = severity ? audits.filter((a) => a.severity === severity) : audits;
      return ok({ data: rows.slice(offset, offset + count), total: rows.length });
    }],
    ['GET', AuditPaths.stats, () => {
      const today = new Date(now()).toISOString().slice(0, 10);
      return ok({ total: audits.length, totalToday: audits.filter((a) => a.createdAt.startsWith(today)).length, severeThisWeek: audits.filter((a) => a.severity === 'High').length });
    }],
    ['GET', AuditPaths.metadata, () => ok({ columns: AUDIT_COLUMNS })],
    ['POST', AuditPaths.exportCsv, () => {
      const cell = (v: string | null) => `"${(v ?? '').replace(/"/g, '""')}"`;
      const lines = audits.map((a) => [a.createdAt, a.email, a.action, a.description, a.ip, a.severity].map(cell).join(','));
      return { status: 200, type: 'text/csv', body: ['Time,User,Action,Description,IP address,Severity', ...lines].join('\n') + '\n' };
    }],
    ['GET', SecurityPaths.securityCenterRecommendations, () => ok(PREVIEW_SECURITY_CENTER.recommendations)],
    ['GET', SecurityPaths.securityCenterInsights, () => ok(PREVIEW_SECURITY_CENTER.insights)],
    ['GET', SecurityPaths.securityCenterScoreHistory, () => ok(PREVIEW_SECURITY_CENTER.scoreHistory)],
    ['POST', SecurityPaths.breachedPasswordResetBulk, () => {
      const emailed = users.filter((u) => u.isBreachedPassword).length;
      audit('Breached password reset', `${emailed} users were asked to reset their password`);
      return ok({ emailed });
    }],
    ...billingRoutes(state),
    ...groupRoutes(state),
    ...apiTokenRoutes(state),
    ...restrictionRoutes(state),
    ...ssoRoutes(state),
    ...accountSettingsRoutes(state),
    ...roleRoutes(state),
    ...teamRoutes(state),
    ...privacyRoutes(state),
  ];
  // Security policies: read, and saved (POST or PATCH) by merging the fields the policy has; a save is
  // audited. A dry run (`?dryRun=true`) answers what would be saved, with no effects counted, and saves nothing.
  const policies: Record<string, Record<string, unknown>> = structuredClone({ ...PREVIEW_POLICIES, ...PREVIEW_PASSWORD_POLICIES });
  const policyPaths: Record<keyof typeof PREVIEW_POLICIES | keyof typeof PREVIEW_PASSWORD_POLICIES, string> = {
    mfa: SecurityPaths.mfaPolicy, lockout: SecurityPaths.lockoutPolicy, passwordHistory: SecurityPaths.passwordHistoryPolicy, captcha: SecurityPaths.captchaPolicy, sessions: SecurityPaths.sessionsPolicy,
    password: SecurityPaths.passwordPolicy, passwordRotation: SecurityPaths.passwordRotation, userEmails: SecurityPaths.userEmailsPolicy,
  };
  for (const [name, path] of Object.entries(policyPaths)) {
    const save: Handler = ({ body, query }) => {
      const policy = query.get('dryRun') === 'true' ? structuredClone(policies[name]!) : policies[name]!;
      const before = JSON.stringify(policy);
      for (const key of Object.keys(policy)) if (key in body && sameShape(body[key], policy[key])) policy[key] = body[key];
      if (policy !== policies[name]) return ok({ dryRun: true, policy, effects: [] });
      audit('Security policy updated', `The ${name} policy was changed: ${before} -> ${JSON.stringify(policy)}`);
      return ok(policy);
    };
    routes.push(['GET', path, () => ok(policies[name])], ['POST', path, save], ['PATCH', path, save]);
  }
  const table = routes.map(([method, template, handler]) => ({ method, match: compile(template), handler }));

  async function answer(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    await sleep(method === 'GET' ? PREVIEW_DELAYS.read : PREVIEW_DELAYS.write);
    const basePath = base.pathname.replace(/\/$/, '');
    let result: Answer;
    if (url.origin !== base.origin || !url.pathname.startsWith(basePath + '/')) {
      result = fail(404, `Preview mode answers only ${base.origin}${basePath}`);
    } else {
      const path = url.pathname.slice(basePath.length);
      let body: Record<string, unknown> = {};
      const text = method === 'GET' || method === 'HEAD' ? '' : await request.text();
      if (text) {
        try {
          const parsed = JSON.parse(text) as unknown;
          body = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
        } catch {
          return json(fail(400, 'The body must be JSON'));
        }
      }
      result = fail(404, `${method} ${path} is not available in preview mode`);
      for (const route of table) {
        if (route.method !== method) continue;
        const params = route.match(path);
        if (params) {
          result = route.handler({ method, path, query: url.searchParams, body, params });
          break;
        }
      }
    }
    return json(result);
  }

  return (input: RequestInfo | URL, init?: RequestInit) => answer(input instanceof Request && init === undefined ? input : new Request(input, init));
}

const USER_EXISTS = 'User already exists';
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const RECOVERY_STRATEGIES: PasswordRecoveryStrategiesResponse = { strategies: [{ strategy: 'email', isActive: true }, { strategy: 'sms', isActive: false }] };

/** A saved value replaces a policy's own only when it has the same type (and, for a nested setting, the same keys). */
function sameShape(value: unknown, current: unknown): boolean {
  if (typeof value !== typeof current || value === null || current === null) return false;
  if (typeof current !== 'object') return true;
  const keys = Object.keys(current as object);
  return !Array.isArray(value) && keys.length === Object.keys(value as object).length && keys.every((k) => sameShape((value as Record<string, unknown>)[k], (current as Record<string, unknown>)[k]));
}

function json({ status, body, type }: Answer): Response {
  if (status === 204 || body === undefined) return new Response(null, { status });
  const text = type ? String(body) : JSON.stringify(body);
  return new Response(text, { status, headers: { 'content-type': type ?? 'application/json' } });
}
