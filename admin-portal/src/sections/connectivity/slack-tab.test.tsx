import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectivityServer, type ConnectivityState } from '../../test/connectivity-server';
import { renderSection } from '../../test/section-harness';
import ConnectivitySection from '../webhooks';
import { rememberSlackState, SLACK_WINDOW } from './slack-return';

const SLACK = '/connectivity/resources/slack/v1';
const WRITER = ['fe.connectivity.read.slackApp', 'fe.connectivity.write.slackApp'];
const CHANNELS = [{ id: 'C01SEC', name: 'security' }, { id: 'C02OPS', name: 'ops' }];

function open(initial: Partial<ConnectivityState>, permissions = WRITER) {
  const server = connectivityServer(initial);
  const view = renderSection(ConnectivitySection, 'Connectivity', server.api, permissions);
  return { view, ...server };
}

afterEach(() => {
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('connectivity: Slack tab', () => {
  it("connects: the scope call's authorize URL opens in Slack's consent window, and the workspace is read again when that window closes", async () => {
    const popup = { closed: false };
    const openWindow = vi.spyOn(window, 'open').mockReturnValue(popup as Window);
    const { view, calls, state } = open({});
    expect(await view.findByText('No workspace is connected.')).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Connect Slack' }));
    await waitFor(() => expect(openWindow).toHaveBeenCalledWith('https://slack.example.com/oauth/v2/authorize?client_id=123.456&state=st4te', SLACK_WINDOW, 'popup,width=620,height=760'));
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(`GET ${SLACK}/scope`);
    // The consent's state is kept for the return (the consent window shares this origin's storage).
    expect(JSON.parse(localStorage.getItem('gatehouse:slack-connect')!).state).toBe('st4te');
    // The consent finished in the other window (it posted the code there); closing it shows the connection here.
    state.slack = { id: 'slk1', connected: true, teamName: 'Acme HQ', slackEvents: [] };
    popup.closed = true;
    expect(await view.findByText('Connected to Acme HQ.', undefined, { timeout: 3000 })).toBeTruthy();
  });

  it('offers a link when the browser blocks the consent window', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    const { view } = open({});
    fireEvent.click(await view.findByRole('button', { name: 'Connect Slack' }));
    const link = await view.findByRole('link', { name: 'Open Slack to connect' });
    expect(link.getAttribute('href')).toBe('https://slack.example.com/oauth/v2/authorize?client_id=123.456&state=st4te');
  });

  it("finishes the connection when Slack comes back to the page with ?code=&state=, opens on the Slack tab, and takes both out of the address bar", async () => {
    rememberSlackState('st4te');
    window.history.replaceState(null, '', '/admin?tab=1&code=c0de-from-slack&state=st4te');
    const { view, calls } = open({}, [...WRITER, 'fe.connectivity.read.emailConfig']);
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Slack workspace Acme HQ connected'));
    expect(view.getByRole('tab', { name: 'Slack' }).getAttribute('aria-selected')).toBe('true');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: `${SLACK}/code`, body: { code: 'c0de-from-slack', state: 'st4te' } }]);
    expect(window.location.search).toBe('?tab=1');
    expect(await view.findByText('Connected to Acme HQ.')).toBeTruthy();
  });

  it("says so when Slack comes back with an error instead of a code", async () => {
    rememberSlackState('st4te');
    window.history.replaceState(null, '', '/admin?error=access_denied&state=st4te');
    const { view, calls } = open({});
    expect((await view.findByText(/^Slack did not connect/)).textContent).toBe('Slack did not connect the workspace (access_denied).');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    expect(window.location.search).toBe('');
  });

  it("leaves alone a code and state this browser did not ask Slack for (another flow's callback, an old consent)", async () => {
    window.history.replaceState(null, '', '/oauth/callback?code=someone-elses&state=other');
    const first = open({}, [...WRITER, 'fe.connectivity.read.emailConfig']);
    expect(first.view.getByRole('tab', { name: 'Email' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(first.view.getByRole('tab', { name: 'Slack' }));
    await first.view.findByText('No workspace is connected.');
    expect(first.calls.some((c) => c.method === 'POST')).toBe(false);
    expect(window.location.search).toBe('?code=someone-elses&state=other');
    document.body.innerHTML = '';
    // A consent older than the server's 10 minutes is not ours any more either.
    rememberSlackState('other', Date.now() - 11 * 60_000);
    const second = open({});
    await second.view.findByText('No workspace is connected.');
    expect(second.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('picks channels per event and saves all events with the configuration id; a new event needs a channel, and an emptied one is sent to be deleted', async () => {
    const slack = { id: 'slk1', connected: true, teamName: 'Acme HQ', slackEvents: [{ id: 'se1', eventKey: 'user.locked', channelIds: ['C01SEC'], enabled: true }] };
    const { view, calls } = open({ slack, channels: CHANNELS });
    const events = await view.findByRole('region', { name: 'Events posted to Slack' });
    const locked = await within(events).findByRole('group', { name: 'user.locked' });
    await waitFor(() => expect(within(locked).getAllByRole('checkbox').map((c) => c.closest('label')!.textContent)).toEqual(['#security', '#ops']));
    expect((within(locked).getByRole('checkbox', { name: '#security' }) as HTMLInputElement).checked).toBe(true);

    const picker = within(events).getByLabelText('Event');
    fireEvent.change(picker, { target: { value: 'user.sign_in_failed' } });
    fireEvent.click(within(events).getByRole('button', { name: 'Add event' }));
    fireEvent.click(within(events).getByRole('button', { name: 'Save' }));
    const failed = within(events).getByRole('group', { name: 'user.sign_in_failed' });
    expect(within(failed).getByRole('alert').textContent).toBe('Choose at least one channel');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(within(failed).getByRole('checkbox', { name: '#ops' }));
    fireEvent.click(within(locked).getByRole('checkbox', { name: '#security' }));
    expect(within(locked).getByText('With no channel, this event is removed when you save.')).toBeTruthy();
    fireEvent.click(within(events).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Slack events saved'));
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: SLACK, body: { id: 'slk1', slackEvents: [{ id: 'se1', eventKey: 'user.locked', channelIds: [], enabled: true }, { eventKey: 'user.sign_in_failed', channelIds: ['C02OPS'], enabled: true }] } },
    ]);
    expect(await within(await view.findByRole('region', { name: 'Events posted to Slack' })).findByRole('group', { name: 'user.sign_in_failed' })).toBeTruthy();
    expect(view.queryByRole('group', { name: 'user.locked' })).toBeNull();
  });

  it('disconnects after confirmation', async () => {
    const { view, calls } = open({ slack: { id: 'slk1', connected: true, teamName: 'Acme HQ', slackEvents: [] }, channels: CHANNELS });
    fireEvent.click(await view.findByRole('button', { name: 'Disconnect' }));
    const dialog = await view.findByRole('dialog', { name: 'Disconnect Slack?' });
    expect(within(dialog).getByText('Gatehouse stops posting to Acme HQ, and its channel subscriptions are deleted.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Slack disconnected'));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: SLACK }]);
    expect(view.getByText('No workspace is connected.')).toBeTruthy();
  });
});
