import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';

const P = {
  me: 'GET /identity/resources/users/v2/me',
  verify: 'POST /identity/resources/users/v1/invitation/verify',
  accept: 'POST /identity/resources/users/v1/invitation/accept',
  acceptCode: 'POST /identity/resources/users/v1/invitation/accept/code',
  resend: 'POST /identity/resources/users/v1/invitation/reset',
};
const me = { id: 'u1', email: 'grace@example.com', name: 'Grace', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const greeting = (extra: Record<string, unknown> = {}): Handler => () => json({ name: 'Grace', email: 'grace@example.com', tenantName: 'Acme', shouldSetPassword: true, codeRequired: false, ...extra });
const signedIn: Handler = () => json({ outcome: 'signedIn', tenantId: 't1', authResponse: { accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false } });
const link = { userId: 'u1', token: 'tok' };

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler | Handler[]>) {
  const stub = createFetchStub({ [P.me]: () => json(me), ...routes });
  const clock = createManualTimers();
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/invitation/accept',
  });
  current = store;
  return { store, stub, clock, navigate, inv: () => store.getSnapshot().invitation };
}

describe('accept invitation flow (seed 4.4)', () => {
  it('is invalid without token or userId, and calls nothing', async () => {
    const { store, stub, inv } = setup({});
    await store.startInvitation({ userId: 'u1', token: '' });
    expect(inv().step).toBe('invalid');
    await store.startInvitation({ userId: null, token: 'tok' });
    expect(inv().step).toBe('invalid');
    expect(stub.calls).toHaveLength(0);
  });

  it('validate: verifies the link and keeps the name, tenant and what the form needs', async () => {
    const { store, stub, inv } = setup({ [P.verify]: greeting() });
    await store.startInvitation(link);
    expect(stub.callsTo(P.verify)[0]!.body).toEqual(link);
    expect(inv()).toEqual({ step: 'validate', loading: false, error: null, name: 'Grace', email: 'grace@example.com', tenantName: 'Acme', shouldSetPassword: true, codeRequired: false, resendSent: false });
  });

  it("failed: a link the server refuses shows its sentence; anything else the seed's 'We couldn't verify your invitation'", async () => {
    const refused = setup({ [P.verify]: () => json({ errors: ['This invitation has expired. Ask for a new one below.'], errorCode: 'ER-01101' }, { status: 400 }) });
    await refused.store.startInvitation(link);
    expect(refused.inv()).toMatchObject({ step: 'failed', error: 'This invitation has expired. Ask for a new one below.' });
    refused.store.dispose();

    const broken = setup({ [P.verify]: () => json({ errors: ['boom'] }, { status: 500 }) });
    await broken.store.startInvitation(link);
    expect(broken.inv()).toMatchObject({ step: 'failed', error: "We couldn't verify your invitation" });
  });

  it('pending -> success: a new account is signed in and navigated after 5 s', async () => {
    const { store, stub, inv, clock, navigate } = setup({ [P.verify]: greeting(), [P.accept]: signedIn });
    await store.startInvitation(link);
    const accepting = store.acceptInvitation({ ...link, password: 'a good passphrase' });
    expect(inv()).toMatchObject({ step: 'pending', loading: true });
    await accepting;
    expect(stub.callsTo(P.accept)[0]!.body).toEqual({ ...link, password: 'a good passphrase' });
    expect(inv()).toMatchObject({ step: 'success', outcome: 'signedIn', loading: false });
    expect(store.getSnapshot().isAuthenticated).toBe(true);
    await clock.advance(4999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('an existing account that joined is not signed in here and is sent to sign in', async () => {
    const { store, inv, clock, navigate } = setup({ [P.verify]: greeting({ shouldSetPassword: false }), [P.accept]: () => json({ outcome: 'joined', tenantId: 't1' }) });
    await store.startInvitation(link);
    await store.acceptInvitation(link);
    expect(inv()).toMatchObject({ step: 'success', outcome: 'joined' });
    expect(store.getSnapshot().isAuthenticated).toBe(false);
    await clock.advance(5000);
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('a password the policy refuses goes back to validate with the message; a dead link goes to failed', async () => {
    const { store, inv } = setup({
      [P.verify]: greeting(),
      [P.accept]: [
        () => json({ errors: ['Password must be at least 8 characters long'], errorCode: 'ER-01010' }, { status: 400 }),
        () => json({ errors: ['This invitation has already been accepted. Sign in to continue.'], errorCode: 'ER-01101' }, { status: 400 }),
      ],
    });
    await store.startInvitation(link);
    await store.acceptInvitation({ ...link, password: 'short' });
    expect(inv()).toMatchObject({ step: 'validate', error: 'Password must be at least 8 characters long', name: 'Grace', shouldSetPassword: true });
    await store.acceptInvitation({ ...link, password: 'a good passphrase' });
    expect(inv()).toMatchObject({ step: 'failed', error: 'This invitation has already been accepted. Sign in to continue.' });
  });

  it('the code variant posts the code to accept/code and returns to validate on any failure', async () => {
    const { store, stub, inv } = setup({
      [P.verify]: greeting({ codeRequired: true }),
      [P.acceptCode]: [() => json({ errors: ['The code is invalid or has expired'], errorCode: 'ER-01102' }, { status: 400 }), signedIn],
    });
    await store.startInvitation(link);
    expect(inv().codeRequired).toBe(true);
    await store.acceptInvitation({ ...link, password: 'a good passphrase', code: ' 000000 ' });
    expect(inv()).toMatchObject({ step: 'validate', error: 'The code is invalid or has expired', codeRequired: true });
    await store.acceptInvitation({ ...link, password: 'a good passphrase', code: '123456' });
    expect(inv()).toMatchObject({ step: 'success', outcome: 'signedIn' });
    expect(stub.callsTo(P.acceptCode).map((c) => c.body)).toEqual([
      { ...link, password: 'a good passphrase', code: '000000' },
      { ...link, password: 'a good passphrase', code: '123456' },
    ]);
    expect(stub.callsTo(P.accept)).toHaveLength(0);
  });

  it('a forced MFA policy: no session, the second factor is asked on the login route after 1 s', async () => {
    const mfa = () => json({ outcome: 'signedIn', tenantId: 't1', authResponse: { accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'M'.repeat(43), mfaEnrolled: false } });
    const { store, inv, clock, navigate } = setup({ [P.verify]: greeting(), [P.accept]: mfa });
    await store.startInvitation(link);
    await store.acceptInvitation({ ...link, password: 'a good passphrase' });
    expect(inv()).toMatchObject({ step: 'success', outcome: 'signedIn' });
    expect(store.getSnapshot().isAuthenticated).toBe(false);
    expect(store.getSnapshot().login).toMatchObject({ step: 'forceTwoFactor', email: 'grace@example.com', mfaToken: 'M'.repeat(43) });
    await clock.advance(1000);
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('resend: emails a new link and says so; an error is shown', async () => {
    const { store, stub, inv } = setup({ [P.resend]: [() => json({}), () => json({ errors: ['Too many attempts. Try again in 60 minutes.'] }, { status: 429 })] });
    await store.resendInvitation(' grace@example.com ');
    expect(stub.callsTo(P.resend)[0]!.body).toEqual({ email: 'grace@example.com' });
    expect(inv()).toMatchObject({ resendSent: true, loading: false, error: null });
    await store.resendInvitation('grace@example.com');
    expect(inv()).toMatchObject({ resendSent: false, error: 'Too many attempts. Try again in 60 minutes.' });
  });
});
