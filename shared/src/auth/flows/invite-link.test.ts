import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';
import { INVITE_LINK_KEY } from './invite-link-key';

const P = {
  me: 'GET /identity/resources/users/v2/me',
  login: 'POST /identity/resources/auth/v1/user',
  refresh: 'POST /identity/resources/auth/v1/user/token/refresh',
  signUp: 'POST /identity/resources/users/v1/signUp',
  activate: 'POST /identity/resources/users/v1/activate',
  verify: 'POST /identity/resources/tenants/invites/v1/verify',
  join: 'POST /identity/resources/tenants/invites/v1/user/join',
  mfaVerify: 'POST /identity/resources/auth/v1/user/mfa/verify',
};
const me = { id: 'u1', email: 'grace@example.com', name: 'Grace', username: null, verified: true, tenantId: 'own', tenantIds: ['own', 'acme'], tenants: [], roles: [], permissions: [] };
const session = (accessToken: string, tenantId: string): Handler => () => json({ accessToken, expiresIn: 300, expires: '', mfaRequired: false, tenantId });
const named: Handler = () => json({ name: 'Acme Corp' });
const dead: Handler = () => json({ errors: ["We couldn't verify your invitation"], errorCode: 'ER-02407' }, { status: 404 });

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler | Handler[]>) {
  const stub = createFetchStub({ [P.me]: () => json(me), ...routes });
  const clock = createManualTimers();
  const navigate = vi.fn();
  const kept = new Map<string, string>();
  const storage = { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v), removeItem: (k: string) => void kept.delete(k) };
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login',
  });
  current = store;
  return { store, stub, navigate, kept };
}

describe('joining by invite link (flows/invite-link.ts)', () => {
  it("greets with the tenant's name, then joins at sign-in and lands in that tenant", async () => {
    const { store, stub, navigate, kept } = setup({ [P.verify]: named, [P.login]: session('own.token', 'own'), [P.join]: () => json({ tenantId: 'acme', tenantName: 'Acme Corp', joined: true }), [P.refresh]: session('acme.token', 'acme') });
    expect(await store.verifyInviteLink('tok')).toEqual({ name: 'Acme Corp' });
    expect(stub.callsTo(P.verify)[0]!.body).toEqual({ token: 'tok' });
    expect(kept.get(INVITE_LINK_KEY)).toBe('tok');

    await store.login({ email: 'grace@example.com', password: 'pw' });
    const join = stub.callsTo(P.join)[0]!;
    expect([join.body, join.headers.get('authorization')]).toEqual([{ token: 'tok' }, 'Bearer own.token']);
    expect(stub.callsTo(P.refresh)[0]!.body).toEqual({ tenantId: 'acme' });
    expect(store.getSnapshot().user?.accessToken).toBe('acme.token');
    expect(store.getAccessToken()).toBe('acme.token');
    expect(kept.has(INVITE_LINK_KEY)).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('sends the kept token with the sign-up', async () => {
    const { store, stub } = setup({ [P.verify]: named, [P.signUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 'acme' }) });
    await store.verifyInviteLink('tok');
    await store.signUp({ email: 'new@example.com', password: 'pw', name: 'New' });
    expect(stub.callsTo(P.signUp)[0]!.body).toMatchObject({ email: 'new@example.com', invitationToken: 'tok' });
    expect(store.getSnapshot().signUp.stage).toBe('SignUpSuccess');
  });

  it("answers 'We couldn't verify your invitation' for a dead link, keeps nothing, and signs in as usual", async () => {
    const { store, stub, kept } = setup({ [P.verify]: dead, [P.login]: session('own.token', 'own'), [P.signUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 'own' }) });
    await expect(store.verifyInviteLink('gone')).rejects.toMatchObject({ message: "We couldn't verify your invitation", statusCode: 404 });
    expect(kept.size).toBe(0);
    await store.login({ email: 'grace@example.com', password: 'pw' });
    expect(stub.callsTo(P.join)).toHaveLength(0);
    expect(store.getSnapshot().user?.accessToken).toBe('own.token');
    await store.signUp({ email: 'new@example.com', password: 'pw' });
    expect(stub.callsTo(P.signUp)[0]!.body).not.toHaveProperty('invitationToken');
  });

  it('still signs in (in the usual tenant) when the link dies between the greeting and the sign-in', async () => {
    const { store, stub, kept } = setup({ [P.verify]: named, [P.login]: session('own.token', 'own'), [P.join]: () => json({ errors: ['This invite link is invalid or has expired'] }, { status: 400 }) });
    await store.verifyInviteLink('tok');
    await store.login({ email: 'grace@example.com', password: 'pw' });
    expect(stub.callsTo(P.join)).toHaveLength(1);
    expect(stub.callsTo(P.refresh)).toHaveLength(0);
    expect(store.getSnapshot().user?.accessToken).toBe('own.token');
    expect(store.getSnapshot().login.error).toBeNull();
    expect(kept.size).toBe(0);
  });

  it('L9: an MFA sign-in keeps the link through the second factor and joins once the session exists', async () => {
    const mfaPending = () => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'mfa-1', mfaEnrolled: true, userId: 'u1' });
    const { store, stub, kept } = setup({ [P.verify]: named, [P.login]: mfaPending, [P.mfaVerify]: session('own.token', 'own'), [P.join]: () => json({ tenantId: 'acme', tenantName: 'Acme Corp', joined: true }), [P.refresh]: session('acme.token', 'acme') });
    await store.verifyInviteLink('tok');
    await store.login({ email: 'grace@example.com', password: 'pw' });
    expect(store.getSnapshot().login.step).toBe('loginWithTwoFactor');
    expect(stub.callsTo(P.join)).toHaveLength(0);
    expect(kept.get(INVITE_LINK_KEY)).toBe('tok');

    await store.verifyMfa({ code: '123456' });
    const join = stub.callsTo(P.join);
    expect(join).toHaveLength(1);
    expect([join[0]!.body, join[0]!.headers.get('authorization')]).toEqual([{ token: 'tok' }, 'Bearer own.token']);
    expect(store.getAccessToken()).toBe('acme.token');
    expect(kept.has(INVITE_LINK_KEY)).toBe(false);
  });

  it('L9: the kept link gets one join attempt: a later sign-in in the tab joins nothing, nor one after a sign-up that sent it', async () => {
    const { store, stub, kept } = setup({ [P.verify]: named, [P.login]: session('own.token', 'own'), [P.join]: () => json({ errors: ['This invite link is invalid or has expired'] }, { status: 400 }), [P.signUp]: () => json({ shouldActivate: true, userId: 'u2', tenantId: 'x' }) });
    await store.verifyInviteLink('tok');
    await store.login({ email: 'grace@example.com', password: 'pw' });
    await store.login({ email: 'grace@example.com', password: 'pw' });
    expect(stub.callsTo(P.join)).toHaveLength(1);
    expect(kept.size).toBe(0);

    // The sign-up carried it (the server joins at activation): the tab keeps nothing for the next sign-in.
    await store.verifyInviteLink('tok');
    await store.signUp({ email: 'new@example.com', password: 'pw' });
    expect(stub.callsTo(P.signUp)[0]!.body).toMatchObject({ invitationToken: 'tok' });
    expect(kept.size).toBe(0);
    await store.login({ email: 'grace@example.com', password: 'pw' });
    expect(stub.callsTo(P.join)).toHaveLength(1);
  });

  it('tells the user when the link died before activation (signed in to a tenant of their own)', async () => {
    const { store } = setup({ [P.activate]: () => json({ accessToken: 'own.token', expiresIn: 300, expires: '', mfaRequired: false, tenantId: 'own', invitationFailed: true }) });
    await store.activate({ userId: 'u1', token: 'act' });
    expect(store.getSnapshot().activate).toMatchObject({ step: 'success', error: "We couldn't verify your invitation" });
    expect(store.getSnapshot().user?.accessToken).toBe('own.token');
  });
});
