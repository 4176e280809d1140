import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attempt, connectivityServer, endpoint, ROTATED_SECRET, SECRET, type ConnectivityState } from '../../test/connectivity-server';
import { renderSection } from '../../test/section-harness';
import { chooseRowAction, rowMenuItems } from '../../test/row-menu';
import ConnectivitySection from '../webhooks';

const WEBHOOKS = '/connectivity/resources/webhooks/v1';
const READER = ['fe.connectivity.read.webhooks'];
const WRITER = [...READER, 'fe.connectivity.write.webhooks'];
const URL_ = 'https://hooks.example.com/gatehouse';
const MENU = `Actions for ${URL_}`;

function open(initial: Partial<ConnectivityState> = {}, permissions = WRITER, failures: Parameters<typeof connectivityServer>[1] = []) {
  const server = connectivityServer(initial, failures);
  const view = renderSection(ConnectivitySection, 'Connectivity', server.api, permissions);
  const root = view.getByRole('heading', { name: 'Connectivity' }).getRootNode() as ShadowRoot;
  return { view, root, ...server };
}

let clipboard: string[];
beforeEach(() => {
  clipboard = [];
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void clipboard.push(text) } });
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('connectivity: webhooks tab', () => {
  it('lists the endpoints with their events, active switch, and the reason an endpoint was disabled', async () => {
    const failing = endpoint({ _id: 'wh2', url: 'https://down.example.com/hook', description: '', eventKeys: ['user.created', 'user.deleted', 'user.invited', 'role.created'], isActive: false, disabledAt: Date.UTC(2026, 10, 25), disabledReason: 'Failing since 2026-11-20T10:00:00.000Z' });
    const { view, calls } = open({ endpoints: [endpoint(), failing] });
    const row = await view.findByRole('row', { name: /down\.example\.com/ });
    expect(calls.filter((c) => c.method === 'GET').map((c) => c.path).sort()).toEqual(['/connectivity/resources/events/v1', WEBHOOKS]);
    expect(within(row).getByRole('rowheader').textContent).toBe('https://down.example.com/hookDisabled after failing: Failing since 2026-11-20T10:00:00.000Z');
    expect(within(row).getAllByRole('cell')[0]!.textContent).toBe('user.createduser.deleteduser.invited+1 more');
    expect((within(row).getByRole('switch', { name: 'Active: https://down.example.com/hook' }) as HTMLInputElement).checked).toBe(false);
    const first = view.getByRole('row', { name: /hooks\.example\.com/ });
    expect(within(first).getByRole('rowheader').textContent).toBe(`${URL_}Provisioning bridge`);
    expect((within(first).getByRole('switch') as HTMLInputElement).checked).toBe(true);
    expect(await rowMenuItems(view, MENU)).toEqual(['Edit', 'Send test', 'Delivery log', 'Rotate secret', 'Delete']);
  });

  it('shows a reader the endpoints and their logs, but no way to add, change, test, rotate, delete or retry', async () => {
    const { view } = open({ endpoints: [endpoint()], logs: { wh1: [attempt(1, { status: 'failed', statusCode: 500 })] } }, READER);
    await view.findByRole('row', { name: /hooks\.example\.com/ });
    expect(view.queryByRole('button', { name: 'Add endpoint' })).toBeNull();
    expect((view.getByRole('switch', { name: `Active: ${URL_}` }) as HTMLInputElement).disabled).toBe(true);
    expect(await rowMenuItems(view, MENU)).toEqual(['Delivery log']);
    await chooseRowAction(view, MENU, 'Delivery log');
    await view.findByRole('row', { name: /Failed/ });
    expect(view.queryByRole('button', { name: /^Retry/ })).toBeNull();
  });

  it('says what to do when there is no endpoint yet, and only that there is none to a reader', async () => {
    const writer = open();
    expect((await writer.view.findByText(/^No endpoints yet/)).textContent).toBe('No endpoints yet. Use “Add endpoint” to have events sent to your service.');
    document.body.innerHTML = '';
    const reader = open({}, READER);
    expect((await reader.view.findByText(/^No endpoints yet/)).textContent).toBe('No endpoints yet.');
  });

  it('adds an endpoint: each field says what is missing, the POST is exactly { url, description, eventKeys, isActive }, and the secret is shown once', async () => {
    const { view, calls, root } = open();
    await view.findByText(/^No endpoints yet/);
    const add = view.getByRole('button', { name: 'Add endpoint' });
    await waitFor(() => expect((add as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(add);
    const dialog = await view.findByRole('dialog', { name: 'Add endpoint' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(within(dialog).getAllByRole('alert').map((a) => a.textContent)).toEqual(['Enter the endpoint URL', 'Choose at least one event']);
    fireEvent.change(within(dialog).getByLabelText('Endpoint URL'), { target: { value: 'hooks.example.com' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    expect(within(dialog).getAllByRole('alert')[0]!.textContent).toBe('Enter a full URL starting with https://');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Endpoint URL'), { target: { value: ` ${URL_} ` } });
    fireEvent.change(within(dialog).getByLabelText('Description (optional)'), { target: { value: 'CRM sync' } });
    // The filter narrows the catalogue; what is ticked stays ticked.
    fireEvent.change(within(dialog).getByLabelText('Filter events'), { target: { value: 'invited' } });
    expect(within(dialog).getAllByRole('checkbox').filter((c) => !(c.closest('legend'))).map((c) => c.closest('label')!.querySelector('code')!.textContent)).toEqual(['user.invited']);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /^user\.invited/ }));
    fireEvent.change(within(dialog).getByLabelText('Filter events'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /^user\.created/ }));
    expect(within(dialog).getByText('2 events chosen')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));

    const secret = await view.findByRole('dialog', { name: 'Endpoint added' });
    // The catalogue's order, whatever order the boxes were ticked in.
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: WEBHOOKS, body: { url: URL_, description: 'CRM sync', eventKeys: ['user.created', 'user.invited'], isActive: true } });
    expect((within(secret).getByLabelText('Signing secret') as HTMLInputElement).value).toBe(SECRET);
    expect(within(secret).getByRole('note').textContent).toBe('Copy the secret now. It will not be shown again. If you lose it, rotate the secret to get a new one.');
    fireEvent.click(within(secret).getByRole('button', { name: 'Copy signing secret' }));
    await waitFor(() => expect(clipboard).toEqual([SECRET]));
    fireEvent.click(within(secret).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(root.innerHTML).not.toContain(SECRET);
    await waitFor(() => expect(view.getByRole('status').textContent).toBe(`Endpoint ${URL_} added`));
    expect(await view.findByRole('row', { name: /CRM sync/ })).toBeTruthy();
  });

  it('ticks a whole category at once from its box', async () => {
    const { view } = open();
    await view.findByText(/^No endpoints yet/);
    await waitFor(() => expect((view.getByRole('button', { name: 'Add endpoint' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(view.getByRole('button', { name: 'Add endpoint' }));
    const dialog = await view.findByRole('dialog', { name: 'Add endpoint' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'All of Groups' }));
    expect(within(dialog).getByText('5 events chosen')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /^group\.deleted/ }));
    expect((within(dialog).getByRole('checkbox', { name: 'All of Groups' }) as HTMLInputElement).indeterminate).toBe(true);
    // Filtered, a category's box still speaks for the whole category: one user event of eight is not all of Users.
    fireEvent.change(within(dialog).getByLabelText('Filter events'), { target: { value: 'invited' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /^user\.invited/ }));
    const users = within(dialog).getByRole('checkbox', { name: 'All of Users' }) as HTMLInputElement;
    expect([users.checked, users.indeterminate]).toEqual([false, true]);
  });

  it("edits an endpoint by saving with its _id, and keeps the dialog with the server's message when it refuses", async () => {
    const message = 'url: the address resolves to a private network (10.0.0.8), which webhooks may not call';
    const { view, calls } = open({ endpoints: [endpoint()] }, WRITER, [{ method: 'POST', path: WEBHOOKS, error: { message, statusCode: 400 } }]);
    await view.findByRole('row', { name: /hooks\.example\.com/ });
    await waitFor(() => expect((view.getByRole('button', { name: 'Add endpoint' }) as HTMLButtonElement).disabled).toBe(false));
    await chooseRowAction(view, MENU, 'Edit');
    const dialog = await view.findByRole('dialog', { name: 'Edit endpoint' });
    expect((within(dialog).getByLabelText('Endpoint URL') as HTMLInputElement).value).toBe(URL_);
    expect((within(dialog).getByRole('checkbox', { name: /^user\.invited/ }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Endpoint URL'), { target: { value: 'https://internal.example.com/hook' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ _id: 'wh1', url: 'https://internal.example.com/hook', description: 'Provisioning bridge', eventKeys: ['user.invited'], isActive: true });
  });

  it('switches an endpoint off and on with its whole configuration saved under its _id', async () => {
    const { view, calls } = open({ endpoints: [endpoint()] });
    const toggle = (await view.findByRole('switch', { name: `Active: ${URL_}` })) as HTMLInputElement;
    fireEvent.click(toggle);
    await waitFor(() => expect(view.getByRole('status').textContent).toBe(`Endpoint ${URL_} is inactive: no events are sent to it`));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: WEBHOOKS, body: { _id: 'wh1', url: URL_, description: 'Provisioning bridge', eventKeys: ['user.invited'], isActive: false } }]);
    await waitFor(() => expect((view.getByRole('switch', { name: `Active: ${URL_}` }) as HTMLInputElement).checked).toBe(false));
  });

  it('sends a test: success only when the receiver answered 200 or 201, else failed with the message, and the log is one click away', async () => {
    const { view, calls, state } = open({ endpoints: [endpoint({ eventKeys: ['user.invited', 'user.created'] })], logs: { wh1: [attempt(1)] } });
    await chooseRowAction(view, MENU, 'Send test');
    const dialog = await view.findByRole('dialog', { name: 'Send a test event' });
    expect(within(dialog).getAllByRole('option').map((o) => o.textContent)).toEqual(['user.invited', 'user.created']);
    fireEvent.change(within(dialog).getByLabelText('Event'), { target: { value: 'user.created' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test' }));
    expect((await within(dialog).findByText('Delivered.')).parentElement!.textContent).toBe('Delivered. The endpoint answered 200');
    expect(calls.find((c) => c.path.endsWith('/test'))).toEqual({ method: 'POST', path: `${WEBHOOKS}/wh1/test`, body: { eventKey: 'user.created' } });

    state.testResult = { status: 'failed', statusCode: 500, message: 'Internal Server Error' };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test' }));
    expect((await within(dialog).findByText('Failed.')).parentElement!.textContent).toBe('Failed. Your endpoint answered 500. Internal Server Error');
    // A 202 is a 2xx but not what seed 001 section 4 calls a successful test.
    state.testResult = { status: 'success', statusCode: 202, message: 'The endpoint answered 202' };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(within(dialog).getByText('Failed.').parentElement!.textContent).toBe('Failed. The endpoint answered 202'));
    state.testResult = { status: 'failed', statusCode: null, message: 'connect ECONNREFUSED 203.0.113.9:443' };
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(within(dialog).getByText('Failed.').parentElement!.textContent).toBe('Failed. connect ECONNREFUSED 203.0.113.9:443'));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Open the delivery log' }));
    expect(await view.findByRole('heading', { name: 'Delivery log' })).toBeTruthy();
  });

  it('reads the log 10 attempts at a time from offset 0, with each attempt’s heads and bodies, and retries a failed one (queued on 202)', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => attempt(i, i === 0 ? { status: 'failed', statusCode: 503, error: 'The endpoint answered 503', responseBody: 'busy', attempt: 2 } : {}));
    const { view, calls } = open({ endpoints: [endpoint()], logs: { wh1: rows } });
    await chooseRowAction(view, MENU, 'Delivery log');
    const failed = await view.findByRole('row', { name: /Failed/ });
    expect(calls.filter((c) => c.path.endsWith('/logs'))).toEqual([{ method: 'GET', path: `${WEBHOOKS}/wh1/logs`, query: { offset: 0, limit: 10 } }]);
    expect(view.getAllByRole('row')).toHaveLength(11);
    expect(within(failed).getAllByRole('cell').slice(0, 4).map((c) => c.textContent)).toEqual(['user.invitedAttempt 2', 'Failed', '503', '40 ms']);
    const toggle = within(failed).getByRole('button', { name: 'Error, request and response' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // The exchange opens in a row of its own under the attempt, spanning the table.
    const details = (failed.getRootNode() as ShadowRoot).getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(details.closest('tr')!.previousElementSibling).toBe(failed);
    expect(within(details).getByText('The endpoint answered 503')).toBeTruthy();
    expect(within(within(details).getByRole('region', { name: 'Request' })).getByText('webhook-id')).toBeTruthy();
    expect(within(within(details).getByRole('region', { name: 'Response' })).getByText('busy')).toBeTruthy();
    expect(within(details).getByText(/"email": "u0@example.com"/)).toBeTruthy();

    fireEvent.click(within(failed).getByRole('button', { name: /^Retry user\.invited of/ }));
    expect(await view.findByText('Retry queued: the delivery is sent again in a moment. Refresh to see it.')).toBeTruthy();
    expect(calls.filter((c) => c.path.endsWith('/retry'))).toEqual([{ method: 'POST', path: `${WEBHOOKS}/logs/log0/retry` }]);
    // Only failed attempts offer a retry.
    expect(view.getAllByRole('button', { name: /^Retry / })).toHaveLength(1);

    fireEvent.click(view.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(view.getAllByRole('row')).toHaveLength(3));
    expect(view.queryByText('The endpoint answered 503')).toBeNull();
    expect(calls.filter((c) => c.path.endsWith('/logs')).at(-1)).toEqual({ method: 'GET', path: `${WEBHOOKS}/wh1/logs`, query: { offset: 10, limit: 10 } });
    expect(view.getByText('Page 2 of 2')).toBeTruthy();

    // Back to the list, focus is on the menu of the endpoint whose log it was.
    fireEvent.click(view.getByRole('button', { name: /All endpoints/ }));
    const menu = await view.findByRole('button', { name: MENU });
    await waitFor(() => expect((menu.getRootNode() as ShadowRoot).activeElement).toBe(menu));
  });

  it('rotates the secret after confirmation and shows the new one once, saying both sign for 24 hours', async () => {
    const { view, calls, root } = open({ endpoints: [endpoint()] });
    await chooseRowAction(view, MENU, 'Rotate secret');
    const confirm = await view.findByRole('dialog', { name: 'Rotate the signing secret?' });
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Rotate secret' }));
    const secret = await view.findByRole('dialog', { name: 'New signing secret' });
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: `${WEBHOOKS}/wh1/rotate-secret` }]);
    expect((within(secret).getByLabelText('Signing secret') as HTMLInputElement).value).toBe(ROTATED_SECRET);
    expect(within(secret).getByRole('note').textContent).toContain('signed with both the old and the new secret');
    fireEvent.click(within(secret).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe(`The signing secret of ${URL_} was rotated`));
    expect(root.innerHTML).not.toContain(ROTATED_SECRET);
  });

  it('deletes an endpoint after confirmation', async () => {
    const { view, calls } = open({ endpoints: [endpoint()] });
    await chooseRowAction(view, MENU, 'Delete');
    const dialog = await view.findByRole('dialog', { name: 'Delete the endpoint?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe(`Endpoint ${URL_} deleted`));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: `${WEBHOOKS}/wh1` }]);
    expect(view.queryByRole('row', { name: /hooks\.example\.com/ })).toBeNull();
  });
});
