import { ChannelPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { auditsOf, callAs, pathOf, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

const FAILED = 'user.sign_in_failed';
const LOCKED = 'user.locked';

describeDialects('email and SMS subscriptions', (harness) => {
  const start = () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });

  it('creates subscriptions only when they have recipients, updates by id, deletes one whose recipients become empty, and audits each save with old and new values', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    expect((await callAs(server, admin, 'GET', ChannelPaths.email)).body).toEqual([]);

    const created = await callAs(server, admin, 'POST', ChannelPaths.email, {
      body: {
        eventKey: FAILED,
        enabled: true,
        subscriptions: [
          { enabled: true, recipients: [' Sec@Example.com ', 'sec@example.com', 'ops@example.com'] },
          { enabled: true, recipients: [] },
        ],
      },
    });
    expect(created.status).toBe(200);
    // Recipients lower-cased and de-duplicated; the subscription without recipients was not created.
    expect(created.body).toEqual({ eventKey: FAILED, enabled: true, subscriptions: [{ id: expect.any(String), enabled: true, recipients: ['sec@example.com', 'ops@example.com'] }] });
    const id = created.body.subscriptions[0].id as string;

    const updated = await callAs(server, admin, 'POST', ChannelPaths.email, {
      body: { eventKey: FAILED, enabled: true, subscriptions: [{ id, enabled: false, recipients: ['ops@example.com'] }, { enabled: true, recipients: ['cto@example.com'] }] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.subscriptions).toEqual([
      { id, enabled: false, recipients: ['ops@example.com'] },
      { id: expect.any(String), enabled: true, recipients: ['cto@example.com'] },
    ]);
    const second = updated.body.subscriptions[1].id as string;

    // All recipients empty: deleted.
    const emptied = await callAs(server, admin, 'POST', ChannelPaths.email, { body: { eventKey: FAILED, enabled: true, subscriptions: [{ id, enabled: true, recipients: [] }] } });
    expect(emptied.status).toBe(200);
    expect(emptied.body.subscriptions).toEqual([{ id: second, enabled: true, recipients: ['cto@example.com'] }]);
    expect(await server.db.selectFrom('channel_subscriptions').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();

    const list = await callAs(server, admin, 'GET', ChannelPaths.email);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ eventKey: FAILED, enabled: true, subscriptions: [{ id: second, enabled: true, recipients: ['cto@example.com'] }] }]);
    // The SMS channel is apart.
    expect((await callAs(server, admin, 'GET', ChannelPaths.sms)).body).toEqual([]);

    const audits = (await auditsOf(server, admin.tenantId)).filter((a) => a.action === 'Email notifications updated');
    expect(audits).toHaveLength(3);
    const last = JSON.parse(audits[0]!.json!);
    expect(last.old.subscriptions.map((s: { id: string }) => s.id)).toEqual([id, second]);
    expect(last.new.subscriptions.map((s: { id: string }) => s.id)).toEqual([second]);
  });

  it('switches an event key with PATCH, replaces a subscription with PUT (empty recipients delete it) and deletes one with DELETE', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const saved = await callAs(server, admin, 'POST', ChannelPaths.email, {
      body: { eventKey: LOCKED, enabled: true, subscriptions: [{ enabled: true, recipients: ['a@example.com'] }, { enabled: true, recipients: ['b@example.com'] }] },
    });
    const [a, b] = saved.body.subscriptions.map((s: { id: string }) => s.id) as [string, string];

    const off = await callAs(server, admin, 'PATCH', pathOf(ChannelPaths.emailEvent, { eventKey: LOCKED }), { body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ eventKey: LOCKED, enabled: false });
    expect(off.body.subscriptions).toHaveLength(2);

    const put = await callAs(server, admin, 'PUT', pathOf(ChannelPaths.emailSubscription, { eventKey: LOCKED, id: a }), { body: { enabled: false, recipients: ['A2@example.com'] } });
    expect(put.status).toBe(200);
    expect(put.body.subscriptions[0]).toEqual({ id: a, enabled: false, recipients: ['a2@example.com'] });

    const putEmpty = await callAs(server, admin, 'PUT', pathOf(ChannelPaths.emailSubscription, { eventKey: LOCKED, id: a }), { body: { enabled: true, recipients: [] } });
    expect(putEmpty.status).toBe(200);
    expect(putEmpty.body.subscriptions.map((s: { id: string }) => s.id)).toEqual([b]);

    expect((await callAs(server, admin, 'DELETE', pathOf(ChannelPaths.emailSubscription, { eventKey: LOCKED, id: b }))).status).toBe(204);
    expect((await callAs(server, admin, 'DELETE', pathOf(ChannelPaths.emailSubscription, { eventKey: LOCKED, id: b }))).status).toBe(404);
    expect((await callAs(server, admin, 'GET', ChannelPaths.email)).body).toEqual([{ eventKey: LOCKED, enabled: false, subscriptions: [] }]);
    // A subscription id of another event key is not found under this one.
    const other = await callAs(server, admin, 'POST', ChannelPaths.email, { body: { eventKey: FAILED, enabled: true, subscriptions: [{ enabled: true, recipients: ['c@example.com'] }] } });
    const c = other.body.subscriptions[0].id as string;
    expect((await callAs(server, admin, 'PUT', pathOf(ChannelPaths.emailSubscription, { eventKey: LOCKED, id: c }), { body: { enabled: true, recipients: ['x@example.com'] } })).status).toBe(404);
    expect((await auditsOf(server, admin.tenantId)).filter((x) => x.action === 'Email notifications updated')).toHaveLength(6);
  });

  it('refuses bad input with a 400 naming the field and changes nothing: unknown event key, bad address, too many recipients, an id of nothing', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const save = (body: unknown) => callAs(server, admin, 'POST', ChannelPaths.email, { body });

    const unknownKey = await save({ eventKey: 'user.exploded', enabled: true, subscriptions: [{ enabled: true, recipients: ['a@example.com'] }] });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.errors[0]).toMatch(/^eventKey: "user.exploded" is not an event key/);

    const badEmail = await save({ eventKey: FAILED, enabled: true, subscriptions: [{ enabled: true, recipients: ['a@example.com', 'not-an-address'] }] });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body).toMatchObject({ errorCode: ErrorCodes.validation });
    expect(badEmail.body.errors[0]).toMatch(/^subscriptions\.0\.recipients\.1: /);

    const tooMany = await save({ eventKey: FAILED, enabled: true, subscriptions: [{ enabled: true, recipients: Array.from({ length: 21 }, (_, i) => `r${i}@example.com`) }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]).toBe('subscriptions.0.recipients: A subscription takes at most 20 recipients');

    const ghost = await save({ eventKey: FAILED, enabled: true, subscriptions: [{ enabled: true, recipients: ['new@example.com'] }, { id: 'no-such-id', enabled: true, recipients: ['a@example.com'] }] });
    expect(ghost.status).toBe(404);

    const extraField = await save({ eventKey: FAILED, enabled: true, subscriptions: [], secret: 'x' });
    expect(extraField.status).toBe(400);

    // Nothing of the refused saves was kept (the 404 rolled back the subscription created before it).
    expect((await callAs(server, admin, 'GET', ChannelPaths.email)).body).toEqual([]);
    expect((await auditsOf(server, admin.tenantId)).filter((x) => x.action === 'Email notifications updated')).toHaveLength(0);

    const badPatchKey = await callAs(server, admin, 'PATCH', pathOf(ChannelPaths.emailEvent, { eventKey: 'nope.nope' }), { body: { enabled: true } });
    expect(badPatchKey.status).toBe(400);
    expect(badPatchKey.body.errors[0]).toMatch(/^eventKey: /);
  });

  it('keeps SMS recipients as E.164 phone numbers and refuses a number without its country code', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const saved = await callAs(server, admin, 'POST', ChannelPaths.sms, { body: { eventKey: LOCKED, enabled: true, subscriptions: [{ enabled: true, recipients: ['+1 (415) 555-0100', '0044 20 7946 0018', '+14155550100'] }] } });
    expect(saved.status).toBe(200);
    expect(saved.body.subscriptions[0].recipients).toEqual(['+14155550100', '+442079460018']);

    const local = await callAs(server, admin, 'POST', ChannelPaths.sms, { body: { eventKey: LOCKED, enabled: true, subscriptions: [{ enabled: true, recipients: ['415 555 0100'] }] } });
    expect(local.status).toBe(400);
    expect(local.body.errors[0]).toMatch(/^subscriptions\.0\.recipients\.0: .*international format/);
    const email = await callAs(server, admin, 'POST', ChannelPaths.sms, { body: { eventKey: LOCKED, enabled: true, subscriptions: [{ enabled: true, recipients: ['a@example.com'] }] } });
    expect(email.status).toBe(400);

    const id = saved.body.subscriptions[0].id as string;
    const put = await callAs(server, admin, 'PUT', pathOf(ChannelPaths.smsSubscription, { eventKey: LOCKED, id }), { body: { enabled: true, recipients: ['+49 30 1234567'] } });
    expect(put.status).toBe(200);
    expect(put.body.subscriptions[0].recipients).toEqual(['+49301234567']);
    expect((await auditsOf(server, admin.tenantId)).filter((x) => x.action === 'SMS notifications updated')).toHaveLength(2);
    // The email channel never sees SMS subscriptions, even by id.
    expect((await callAs(server, admin, 'DELETE', pathOf(ChannelPaths.emailSubscription, { eventKey: LOCKED, id }))).status).toBe(404);
  });

  it("keeps tenants apart: another tenant's admin neither sees nor changes a subscription, even by id", async () => {
    const server = await start();
    const owner = await tenantWithAdmin(server);
    const stranger = await tenantWithAdmin(server, 'stranger');
    const saved = await callAs(server, owner, 'POST', ChannelPaths.email, { body: { eventKey: FAILED, enabled: true, subscriptions: [{ enabled: true, recipients: ['a@example.com'] }] } });
    const id = saved.body.subscriptions[0].id as string;

    expect((await callAs(server, stranger, 'GET', ChannelPaths.email)).body).toEqual([]);
    expect((await callAs(server, stranger, 'POST', ChannelPaths.email, { body: { eventKey: FAILED, enabled: true, subscriptions: [{ id, enabled: true, recipients: ['evil@example.com'] }] } })).status).toBe(404);
    expect((await callAs(server, stranger, 'PUT', pathOf(ChannelPaths.emailSubscription, { eventKey: FAILED, id }), { body: { enabled: true, recipients: ['evil@example.com'] } })).status).toBe(404);
    expect((await callAs(server, stranger, 'DELETE', pathOf(ChannelPaths.emailSubscription, { eventKey: FAILED, id }))).status).toBe(404);
    expect((await callAs(server, stranger, 'GET', ChannelPaths.email, { tenantId: owner.tenantId })).status).toBe(404);
    expect((await callAs(server, owner, 'GET', ChannelPaths.email)).body[0].subscriptions).toEqual([{ id, enabled: true, recipients: ['a@example.com'] }]);
  });
});
