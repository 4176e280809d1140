/**
 * Impersonation in Chromium against the built server: an admin holding the dedicated permission
 * (granted through a role in the database, as the roles screens of issue 5 will) gets a token through
 * the API, opens /account/impersonate?token=... and, after the success step and the seed's 1 s,
 * lands signed in as the target; the access token names the admin in its `act` claim. The token
 * works once.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { linkIn, waitForMail } from './support/mailbox';
import { useBrowserAndServer } from './support/server';
import { PASSWORD, visible } from './support/journey';

async function api<T = any>(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

const env = useBrowserAndServer();

/** Gives the user a role of the tenant holding only fe.secure.write.impersonate. */
function grantImpersonation(userId: string, tenantId: string): void {
  const db = new Database(join(env.server.dataDir, 'gatehouse.db'));
  try {
    const permission = db.prepare("select id from permissions where key = 'fe.secure.write.impersonate'").get() as { id: string };
    const roleId = randomBytes(16).toString('hex');
    db.prepare('insert into roles (id, tenant_id, key, name, description, is_default, created_at) values (?, ?, ?, ?, null, 0, ?)').run(roleId, tenantId, 'Impersonator', 'Impersonator', Date.now());
    db.prepare('insert into role_permissions (role_id, permission_id) values (?, ?)').run(roleId, permission.id);
    db.prepare('insert into user_roles (user_id, tenant_id, role_id) values (?, ?, ?)').run(userId, tenantId, roleId);
  } finally {
    db.close();
  }
}

describe('impersonation', () => {
  it('an admin obtains a token via the API; the impersonation route shows success and lands signed in as the target after about 1 s', async () => {
    const url = env.server.url;
    // The admin: sign-up and activation through the API.
    const adminEmail = `admin-${Date.now()}@example.com`;
    await api(url, 'POST', '/identity/resources/users/v1/signUp', { email: adminEmail, password: PASSWORD });
    const activation = new URL(linkIn(await waitForMail(url, adminEmail, /activate/i), '/account/activate'));
    const admin = (await api(url, 'POST', '/identity/resources/users/v1/activate', { userId: activation.searchParams.get('userId'), token: activation.searchParams.get('token'), password: PASSWORD })).body;
    grantImpersonation(admin.userId, admin.tenantId);
    // The target: invited into the admin's tenant, accepted with a password of their own.
    const targetEmail = `target-${Date.now()}@example.com`;
    expect((await api(url, 'POST', '/identity/resources/users/v1', { email: targetEmail, name: 'Tess Target' }, admin.accessToken)).status).toBe(201);
    const invitation = new URL(linkIn(await waitForMail(url, targetEmail, /invited/i), '/account/invitation/accept'));
    const accepted = await api(url, 'POST', '/identity/resources/users/v1/invitation/accept', { userId: invitation.searchParams.get('userId'), token: invitation.searchParams.get('token'), password: 'the target own passphrase' });
    expect(accepted.body.outcome).toBe('signedIn');

    const issued = await api(url, 'POST', '/identity/resources/impersonation/v1', { userId: invitation.searchParams.get('userId'), reason: 'e2e support ticket' }, admin.accessToken);
    expect(issued.status).toBe(200);
    expect(issued.body.url.startsWith(`${url}/account/impersonate?token=`)).toBe(true);

    const context = await env.browser.newContext();
    const page = await context.newPage();
    // When the exchange answered (the success step follows it), taken as the response arrives.
    const exchanged = page.waitForResponse((r) => r.url().endsWith('/identity/resources/auth/v1/impersonate') && r.request().method() === 'POST').then(() => Date.now());
    await page.goto(issued.body.url);
    await visible(page, page.getByRole('heading', { name: 'Impersonate user' }));
    await visible(page, page.getByText(`You are now signed in as Tess Target (${targetEmail})`));
    await page.screenshot({ path: '/tmp/h3-impersonate-success.png' });
    await page.waitForURL(`${url}/`, { timeout: 10_000 });
    // Seed 4.7 / 9: the success step (shown after the exchange answered) stays 1000 ms before navigating.
    expect(Date.now() - (await exchanged)).toBeGreaterThanOrEqual(900);
    await visible(page, page.getByTestId('signed-in-user'));
    expect(await page.getByTestId('signed-in-user').textContent()).toContain(targetEmail);
    const claims = await page.evaluate(() => {
      const token = (window as any).Gatehouse.getApp().getState().user.accessToken as string;
      return JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')));
    });
    expect(claims).toMatchObject({ email: targetEmail, act: { sub: admin.userId, email: adminEmail }, tenantIds: [admin.tenantId] });
    await page.screenshot({ path: '/tmp/h3-impersonate-landed.png' });

    // The token works once.
    const second = await context.newPage();
    await second.goto(issued.body.url);
    await visible(second, second.getByRole('alert'));
    expect(await second.getByRole('alert').first().textContent()).toContain('The impersonation link is invalid or has expired');
    await second.screenshot({ path: '/tmp/h3-impersonate-reused.png' });
    await context.close();
  });
});
