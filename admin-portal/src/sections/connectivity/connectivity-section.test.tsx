import { fireEvent, render, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readAdminPortalOptions } from '../../options';
import { connectivityServer } from '../../test/connectivity-server';
import { createTestStore, makeUser, shadowMountPoint } from '../../test/fake-store';
import { renderSection } from '../../test/section-harness';
import ConnectivitySection from '../webhooks';

const ALL_READ = ['fe.connectivity.read.webhooks', 'fe.connectivity.read.emailConfig', 'fe.connectivity.read.smsConfig', 'fe.connectivity.read.slackApp'];

function open(permissions: string[]) {
  const server = connectivityServer();
  const view = renderSection(ConnectivitySection, 'Connectivity', server.api, permissions);
  return { view, ...server };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('connectivity section', () => {
  it('shows the channels in the seed’s order, email, Slack, SMS, webhooks, and starts on the first', async () => {
    const { view, calls } = open(ALL_READ);
    const tabs = view.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Email', 'Slack', 'SMS', 'Webhooks']);
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true');
    await view.findByText('No email notifications yet.');
    // A tab's calls wait until it is first shown.
    expect(calls.map((c) => c.path).sort()).toEqual(['/connectivity/resources/email/v1', '/connectivity/resources/events/v1']);
    fireEvent.keyDown(tabs[0]!, { key: 'End' });
    expect(view.getByRole('tab', { name: 'Webhooks' }).getAttribute('aria-selected')).toBe('true');
    await view.findByText('No endpoints yet.');
    expect(calls.map((c) => c.path)).toContain('/connectivity/resources/webhooks/v1');
    expect(calls.map((c) => c.path)).not.toContain('/connectivity/resources/slack/v1');
  });

  it('shows each tab only to holders of its read permission', async () => {
    const { view, calls } = open(['fe.connectivity.read.webhooks', 'fe.connectivity.read.smsConfig']);
    expect(view.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['SMS', 'Webhooks']);
    await view.findByText('No SMS notifications yet.');
    expect(calls.some((c) => c.path.includes('/email/') || c.path.includes('/slack/'))).toBe(false);
  });

  it('hides a tab, or shows it view-only, as the host sets adminPortal.fieldVisibility.webhooks', async () => {
    const server = connectivityServer();
    const writer = [...ALL_READ, 'fe.connectivity.write.webhooks', 'fe.connectivity.write.emailConfig'];
    const view = renderSection(ConnectivitySection, 'Connectivity', server.api, writer, { fieldVisibility: { webhooks: { slack: 'hidden', webhooks: 'viewOnly' } } });
    expect(view.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Email', 'SMS', 'Webhooks']);
    expect(await view.findByLabelText('Event')).toBeTruthy();
    fireEvent.click(view.getByRole('tab', { name: 'Webhooks' }));
    expect(await view.findByText('No endpoints yet.')).toBeTruthy();
    expect(view.queryByRole('button', { name: 'Add endpoint' })).toBeNull();
  });

  it('opens at the tab it is targeted at, and shows a super user every tab', () => {
    const server = connectivityServer();
    const { domElement } = shadowMountPoint();
    const user = makeUser({ superUser: true });
    const store = createTestStore(user);
    render(<ConnectivitySection title="Connectivity" headingId="c" user={user} snapshot={store.getSnapshot()} store={store} api={server.api} options={readAdminPortalOptions(undefined)} target="webhooks" />, { container: domElement });
    const view = within(domElement);
    expect(view.getByRole('tab', { name: 'Webhooks' }).getAttribute('aria-selected')).toBe('true');
    expect(view.getAllByRole('tab')).toHaveLength(4);
  });
});
