import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { connectivityServer, type ConnectivityState } from '../../test/connectivity-server';
import { renderSection } from '../../test/section-harness';
import ConnectivitySection from '../webhooks';

const EMAIL = '/connectivity/resources/email/v1';
const SMS = '/connectivity/resources/sms/v1';
const EMAIL_WRITER = ['fe.connectivity.read.emailConfig', 'fe.connectivity.write.emailConfig'];
const SMS_WRITER = ['fe.connectivity.read.smsConfig', 'fe.connectivity.write.smsConfig'];

function open(initial: Partial<ConnectivityState>, permissions: string[], failures: Parameters<typeof connectivityServer>[1] = []) {
  const server = connectivityServer(initial, failures);
  const view = renderSection(ConnectivitySection, 'Connectivity', server.api, permissions);
  return { view, ...server };
}

afterEach(() => {
  document.body.innerHTML = '';
});

const card = (view: ReturnType<typeof open>['view'], key: string) => view.getByRole('region', { name: key });

describe('connectivity: email and SMS tabs', () => {
  it('adds recipients for an event: each recipient checked before sending, and a new subscription left empty is never sent', async () => {
    const { view, calls } = open({}, EMAIL_WRITER);
    expect((await view.findByText(/^No email notifications yet/)).textContent).toBe('No email notifications yet. Choose an event above to add recipients.');
    const picker = await view.findByLabelText('Event');
    await waitFor(() => expect(within(picker).getAllByRole('option').length).toBeGreaterThan(30));
    fireEvent.change(picker, { target: { value: 'user.sign_in_failed' } });
    fireEvent.click(view.getByRole('button', { name: 'Add event' }));
    const region = card(view, 'user.sign_in_failed');
    expect(within(region).getByText(/A sign-in into the tenant failed/)).toBeTruthy();
    const input = within(region).getByLabelText('Recipients (1)');
    // The new subscription's field has focus, ready to type in.
    expect((input.getRootNode() as ShadowRoot).activeElement).toBe(input);
    fireEvent.change(input, { target: { value: 'security@example.com, not-an-address; ops@' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save' }));
    expect(within(region).getByRole('alert').textContent).toBe('These are not email addresses: not-an-address, ops@');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(input, { target: { value: 'security@example.com, ops@example.com security@example.com' } });
    expect(within(region).queryByRole('alert')).toBeNull();
    fireEvent.click(within(region).getByRole('button', { name: 'Add subscription' }));
    fireEvent.click(within(region).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Notifications for user.sign_in_failed saved'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: EMAIL, body: { eventKey: 'user.sign_in_failed', enabled: true, subscriptions: [{ enabled: true, recipients: ['security@example.com', 'ops@example.com'] }] } },
    ]);
    // The saved card now holds the server's subscription (with its id).
    await waitFor(() => expect((within(card(view, 'user.sign_in_failed')).getByLabelText('Recipients (1)') as HTMLInputElement).value).toBe('security@example.com, ops@example.com'));
  });

  it('updates subscriptions by id, and deletes one whose recipients were emptied or that was removed, instead of sending it empty', async () => {
    const email = [{ eventKey: 'user.locked', enabled: true, subscriptions: [{ id: 'a', enabled: true, recipients: ['a@example.com'] }, { id: 'b', enabled: true, recipients: ['b@example.com'] }, { id: 'c', enabled: false, recipients: ['c@example.com'] }] }];
    const { view, calls } = open({ email }, EMAIL_WRITER);
    await view.findByRole('region', { name: 'user.locked' });
    const region = card(view, 'user.locked');
    fireEvent.change(within(region).getByLabelText('Recipients (1)'), { target: { value: 'a@example.com, a2@example.com' } });
    fireEvent.change(within(region).getByLabelText('Recipients (2)'), { target: { value: '  ' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Remove subscription 3 of user.locked' }));
    fireEvent.click(within(region).getAllByRole('switch')[0]!);
    fireEvent.click(within(region).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Notifications for user.locked saved'));
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([
      { method: 'DELETE', path: `${EMAIL}/user.locked/subscriptions/c` },
      { method: 'DELETE', path: `${EMAIL}/user.locked/subscriptions/b` },
      { method: 'POST', path: EMAIL, body: { eventKey: 'user.locked', enabled: false, subscriptions: [{ id: 'a', enabled: true, recipients: ['a@example.com', 'a2@example.com'] }] } },
    ]);
  });

  it("keeps the admin's edits and shows the server's message when the save is refused", async () => {
    const message = 'subscriptions[0].recipients[0]: Each recipient must be an email address';
    const { view } = open({ email: [{ eventKey: 'user.locked', enabled: true, subscriptions: [{ id: 'a', enabled: true, recipients: ['a@example.com'] }] }] }, EMAIL_WRITER, [{ method: 'POST', path: EMAIL, error: { message, statusCode: 400 } }]);
    const region = await view.findByRole('region', { name: 'user.locked' });
    fireEvent.change(within(region).getByLabelText('Recipients (1)'), { target: { value: 'new@example.com' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save' }));
    expect((await within(region).findByRole('alert')).textContent).toBe(message);
    expect((within(region).getByLabelText('Recipients (1)') as HTMLInputElement).value).toBe('new@example.com');
  });

  it('takes phone numbers in international format on the SMS tab', async () => {
    const { view, calls } = open({}, SMS_WRITER);
    const picker = await view.findByLabelText('Event');
    await waitFor(() => expect(within(picker).getAllByRole('option').length).toBeGreaterThan(30));
    fireEvent.change(picker, { target: { value: 'user.locked' } });
    fireEvent.click(view.getByRole('button', { name: 'Add event' }));
    const region = card(view, 'user.locked');
    const input = within(region).getByLabelText('Phone numbers (1)');
    fireEvent.change(input, { target: { value: '0155 1234567' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save' }));
    expect(within(region).getByRole('alert').textContent).toBe('These are not phone numbers in international format: 0155, 1234567');
    fireEvent.change(input, { target: { value: '+4915512345678' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: SMS, body: { eventKey: 'user.locked', enabled: true, subscriptions: [{ enabled: true, recipients: ['+4915512345678'] }] } }]));
  });

  it('shows a reader the subscriptions with nothing to change', async () => {
    const { view } = open({ email: [{ eventKey: 'user.locked', enabled: true, subscriptions: [{ id: 'a', enabled: true, recipients: ['a@example.com'] }] }] }, ['fe.connectivity.read.emailConfig']);
    const region = await view.findByRole('region', { name: 'user.locked' });
    expect((within(region).getByLabelText('Recipients (1)') as HTMLInputElement).disabled).toBe(true);
    expect(within(region).queryByRole('button')).toBeNull();
    expect(view.queryByLabelText('Event')).toBeNull();
  });
});
