import { expect, it } from 'vitest';
import { createApiClient } from '../api/client';
import { AdminPaths } from '../wire/admin/paths';
import { AuditPaths } from '../wire/admin/audit-paths';
import { AuditsResponse } from '../wire/admin/audits';
import { BulkInviteResponse, InviteLink, TemporaryUsersConfiguration, TenantUser, UsersPage } from '../wire/admin/users';
import { isGatehouseError } from '../errors';
import { createPreviewFetch } from './preview-api';

const BASE = 'https://auth.example.test/api';
const NOW = Date.UTC(2026, 1, 20, 15);

function setup() {
  const fetch = createPreviewFetch({ baseUrl: BASE, now: () => NOW, sleep: async () => {} });
  const api = createApiClient({ baseUrl: BASE, clientId: 'preview', getAccessToken: () => 'preview-access-token', fetch, retry: { attempts: 1 } });
  const lastAudit = async () => AuditsResponse.parse(await api.request('GET', AuditPaths.audits)).data[0];
  return { api, lastAudit };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!isGatehouseError(error)) throw new Error(`expected a GatehouseError, got ${String(error)}`);
  return [error.statusCode, error.message];
}

it('invites many addresses at once: each new one added with the default role, a taken or malformed one refused with its reason', async () => {
  const { api } = setup();
  const answer = BulkInviteResponse.parse(await api.request('POST', AdminPaths.bulkInvite, { body: { emails: ['lee@preview.example', 'ben@preview.example', 'not-an-address'] } }));
  expect(answer.allowed.map((a) => a.email)).toEqual(['lee@preview.example']);
  expect(answer.unallowed).toEqual([{ email: 'ben@preview.example', reason: 'User already exists' }, { email: 'not-an-address', reason: 'email must be an email address' }]);
  const lee = UsersPage.parse(await api.request('GET', AdminPaths.teamMembers, { query: { filter: 'lee' } })).items[0]!;
  expect([lee.invitationPending, lee.roles.map((r) => r.key)]).toEqual([true, ['ReadOnly']]);
  expect(await failure(api.request('POST', AdminPaths.bulkInvite, { body: { emails: [] } }))).toEqual([400, 'emails must list 1 to 100 addresses']);
});

it('makes a user temporary and permanent again, and resends an invitation, each audited', async () => {
  const { api, lastAudit } = setup();
  expect(TemporaryUsersConfiguration.parse(await api.request('GET', AdminPaths.temporaryUsersConfiguration)).enabled).toBe(true);
  const path = AdminPaths.temporaryUser.replace('{userId}', 'preview-user-3');
  const temporary = TenantUser.parse(await api.request('PUT', path, { body: { expirationInSeconds: 86_400 } }));
  expect(temporary.temporaryExpirationDate).toBe('2026-02-21T15:00:00.000Z');
  expect(await lastAudit()).toMatchObject({ action: 'Temporary user set', description: 'cleo@preview.example: expires never -> 2026-02-21T15:00:00.000Z' });
  expect(await failure(api.request('PUT', path, { body: { expirationInSeconds: 5 } }))).toEqual([400, 'expirationInSeconds must be a whole number from 60 to 315360000']);
  expect(TenantUser.parse(await api.request('DELETE', path)).temporaryExpirationDate).toBeNull();
  await api.request('POST', AdminPaths.teamResendActivation.replace('{userId}', 'preview-user-8'));
  expect(await lastAudit()).toMatchObject({ action: 'Invitation resent', description: 'The invitation of hana@preview.example was sent again' });
});

it("creates, changes and deletes the account's invite link, each audited; none at first", async () => {
  const { api, lastAudit } = setup();
  expect(await failure(api.request('GET', AdminPaths.inviteLink))).toEqual([404, 'The account has no invite link']);
  const created = InviteLink.parse(await api.request('POST', AdminPaths.inviteLink, { body: {} }));
  expect([created.expiresInMinutes, created.url]).toEqual([43_200, `/account/sign-up?invitationToken=${created.token}`]);
  expect(await lastAudit()).toMatchObject({ action: 'Invite link created' });
  const changed = InviteLink.parse(await api.request('PATCH', AdminPaths.inviteLink, { body: { expiresInMinutes: 60 } }));
  expect([changed.token, changed.expiresInMinutes, changed.expires]).toEqual([created.token, 60, '2026-02-20T16:00:00.000Z']);
  expect(await failure(api.request('PATCH', AdminPaths.inviteLink, { body: { expiresInMinutes: 0 } }))).toEqual([400, 'expiresInMinutes must be a whole number from 1 to 525600']);
  await api.request('DELETE', AdminPaths.inviteLink);
  expect(await lastAudit()).toMatchObject({ action: 'Invite link deleted' });
  expect(await failure(api.request('GET', AdminPaths.inviteLink))).toEqual([404, 'The account has no invite link']);
});
