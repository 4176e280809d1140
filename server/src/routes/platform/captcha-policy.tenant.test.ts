/**
 * The tenant's captcha policy (issue 12): where a call names its tenant (sign-up or sign-in through
 * the tenant's invite link), the tenant's higher minimum score applies; elsewhere the vendor's.
 */
import { AdminPaths, ApiPaths, ErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callAs } from '../../test/admin-helpers';
import { call, describeDialects, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { startFakeRecaptcha, type FakeRecaptcha } from '../../test/fake-recaptcha';

let fake: FakeRecaptcha;
beforeAll(async () => {
  fake = await startFakeRecaptcha();
});
afterAll(async () => {
  await fake?.stop();
});

const LIMITS = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_CAPTCHA_PER_IP: '1000/600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600' };

describeDialects("tenant captcha policy", (h) => {
  it("a sign-up through the tenant's invite link needs the tenant's higher score; one without a link needs the vendor's", async () => {
    fake.behave({ score: 0.9, verify: 'normal', script: 'ok' });
    const server = await h.start({ ...LIMITS, ...fake.env({ CAPTCHA_MIN_SCORE: '0.5' }) });
    const admin = await signUpAndActivate(server, uniqueEmail('captcha'), { recaptchaToken: fake.issueToken('signup') });
    const link = await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: {} });
    expect(link.status).toBe(201);
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.captchaPolicy, { body: { minScore: 0.8 } })).body).toMatchObject({ enabled: true, minScore: 0.8 });

    fake.behave({ score: 0.7, verify: 'normal', script: 'ok' });
    const signUp = (extra: Record<string, unknown>) => call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail('joiner'), password: PASSWORD, name: 'Joiner', recaptchaToken: fake.issueToken('signup'), ...extra } });
    const refused = await signUp({ invitationToken: link.body.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errorCode: ErrorCodes.captchaFailed, errorContext: { reason: 'low-score' } });
    // The same score is enough for the vendor's 0.5 when no tenant is named.
    expect((await signUp({})).status).toBe(200);

    fake.behave({ score: 0.85, verify: 'normal', script: 'ok' });
    expect((await signUp({ invitationToken: link.body.token })).status).toBe(200);
  });
});
