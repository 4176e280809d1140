/**
 * The tenant's remember-this-device setting (issue 12): a shorter mfaDeviceExpiration shortens
 * browsers remembered before it, exactly those the dry run counted; new ones get the shorter life.
 */
import { ApiPaths, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { mfaRememberCookieName } from '../../http/mfa-cookie';
import { callAs } from '../../test/admin-helpers';
import { call, describeDialects, PASSWORD } from '../../test/harness';
import { enrolledUser, login, stepClock } from '../../test/mfa-helpers';
import { appCode } from '../../test/rfc6238';

const DAY = 86_400_000;

/** Signs in with the password and the app's code, asking to remember this browser; the cookie and its Set-Cookie line. */
async function remember(server: GatehouseServer, user: { email: string; secret: string }, now: number) {
  const pending = await call(server, 'POST', ApiPaths.login, { body: { email: user.email, password: PASSWORD } });
  const ok = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: pending.body.mfaToken, value: appCode(user.secret, now), rememberDevice: true } });
  expect(ok.status).toBe(200);
  const name = mfaRememberCookieName(server.config.clientId);
  const line = ok.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))!;
  return { cookie: line.split(';')[0]!, line, accessToken: ok.body.accessToken as string };
}

describeDialects("tenant MFA policy: remember this device", (h) => {
  it('a shorter mfaDeviceExpiration forgets the browsers remembered longer ago, as many as the dry run counted', async () => {
    const clock = stepClock();
    const server = await h.start({ RATE_LIMIT_LOGIN_PER_IP: '1000/600', MFA_REMEMBER_DEVICE_DAYS: '30' }, { clock });
    const user = await enrolledUser(server, clock.now);
    clock.advance(30_000);
    const old = await remember(server, user, clock.now());
    clock.advance(2 * DAY);
    const recent = await remember(server, user, clock.now());

    const body = { mfaDeviceExpiration: DAY / 1000 };
    const admin = { accessToken: recent.accessToken };
    const dry = await callAs(server, admin, 'PATCH', `${SecurityPaths.mfaPolicy}?dryRun=true`, { body });
    const counted = dry.body.effects.find((e: { code: string }) => e.code === 'REMEMBERED_DEVICES_FORGOTTEN').affected;
    expect(counted).toBe(1);
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.mfaPolicy, { body })).status).toBe(200);

    let forgotten = 0;
    for (const browser of [old, recent]) {
      if ((await login(server, user.email, { cookie: browser.cookie })).body.mfaRequired) forgotten += 1;
    }
    expect(forgotten).toBe(counted);
    expect((await login(server, user.email, { cookie: recent.cookie })).body.mfaRequired).toBe(false);
    // A browser remembered now lives one day.
    clock.advance(30_000);
    expect((await remember(server, user, clock.now())).line).toMatch(/Max-Age=86400\b/i);
  });
});
