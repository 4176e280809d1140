import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CdnPromoteBody, type CdnVersionsResponse } from '@gatehouse/shared/wire';
import { chooseRowAction, rowMenuItems } from '../../test/row-menu';
import { type Call, type Failure } from '../../test/section-harness';
import { CDN_API, openCdnTab } from './cdn-tab-harness';

const P = CDN_API;
const VERSIONS: CdnVersionsResponse = {
  bundles: [
    {
      bundle: 'login-box',
      default: '7.78.0',
      previous: '7.77.0',
      canary: { version: '7.79.0', percent: 20 },
      pins: [{ tenantId: 'tenant-a', version: '7.77.0' }],
      versions: [
        { version: '7.79.0', state: ['canary'], wireBytes: 40_960, publishedAt: Date.UTC(2026, 10, 27, 9, 30) },
        { version: '7.78.0', state: ['default'], wireBytes: 39_936, publishedAt: Date.UTC(2026, 10, 20, 9, 30) },
        { version: '7.77.0', state: ['previous', 'pinned'], wireBytes: 38_912, publishedAt: Date.UTC(2026, 10, 1, 9, 30) },
        { version: '7.76.0', state: ['unused'], wireBytes: 37_000, publishedAt: Date.UTC(2026, 9, 1, 9, 30) },
      ],
    },
    { bundle: 'runtime', default: '7.78.0', previous: null, canary: null, pins: [], versions: [{ version: '7.78.0', state: ['default'], wireBytes: 51_200, publishedAt: Date.UTC(2026, 10, 20, 9, 30) }] },
  ],
};

function open(failures: Failure[] = []) {
  return openCdnTab((method, path) => {
    if (method === 'GET' && path === `${P}/versions`) return VERSIONS;
    if (path === `${P}/prune`) return { removed: [{ bundle: 'login-box', version: '7.76.0' }] };
    return undefined;
  }, failures);
}

const LOAD = { timeout: 5000 };
const changes = (calls: Call[]) => calls.filter((c) => c.method !== 'GET');

afterEach(() => {
  document.body.innerHTML = '';
});

describe('Operator CDN tab', { timeout: 30_000 }, () => {
  it('lists every published version of each bundle with its states, its size over the wire and when it was published', async () => {
    const { view } = open();
    const canary = await view.findByRole('row', { name: /login-box 7\.79\.0/ }, LOAD);
    expect(within(canary).getAllByRole('cell').map((c) => c.textContent).slice(0, 2)).toEqual(['7.79.0', 'Canary 20%']);
    expect(within(canary).getAllByRole('cell')[2]!.textContent).toBe('40 kB');
    expect(within(view.getByRole('row', { name: /login-box 7\.77\.0/ })).getAllByRole('cell')[1]!.textContent).toBe('PreviousPinned for 1 tenant');
    expect(within(view.getByRole('row', { name: /login-box 7\.76\.0/ })).getAllByRole('cell')[1]!.textContent).toBe('Unused');
    expect(view.getByRole('row', { name: /runtime 7\.78\.0/ })).toBeTruthy();
    // Each row offers what applies to it.
    expect(await rowMenuItems(view, 'Actions for login-box 7.78.0')).toEqual(['Roll back to 7.77.0']);
    expect(await rowMenuItems(view, 'Actions for login-box 7.79.0')).toEqual(['Make default', 'Canary…', 'Pin tenants…', 'Stop canary']);
    expect(await rowMenuItems(view, 'Actions for login-box 7.77.0')).toEqual(['Make default', 'Canary…', 'Pin tenants…', 'Unpin tenant tenant-a']);
    // A default without a previous one has nothing to offer.
    expect(view.queryByRole('button', { name: 'Actions for runtime 7.78.0' })).toBeNull();
  });

  it('makes a version the default after confirming, and says so once the list shows it', async () => {
    const { view, calls } = open();
    await chooseRowAction(view, 'Actions for login-box 7.79.0', 'Make default');
    const dialog = await view.findByRole('dialog', { name: 'Make login-box 7.79.0 the default' }, LOAD);
    expect(changes(calls)).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make default' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('login-box 7.79.0 is the default'), LOAD);
    expect(changes(calls)).toEqual([{ method: 'POST', path: `${P}/bundles/login-box/promote`, body: { version: '7.79.0' } }]);
  });

  it('starts a canary: a percentage outside 1-100 or not whole is refused on the field before anything is sent', async () => {
    const { view, calls } = open();
    await chooseRowAction(view, 'Actions for login-box 7.76.0', 'Canary…');
    const dialog = await view.findByRole('dialog', { name: 'Canary login-box 7.76.0' }, LOAD);
    const field = within(dialog).getByLabelText('Share of people (%)');
    for (const bad of ['0', '101', '12.5', 'ten']) {
      fireEvent.change(field, { target: { value: bad } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Start canary' }));
      expect(within(dialog).getByRole('alert').textContent).toBe('Enter a whole number from 1 to 100');
    }
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(changes(calls)).toEqual([]);
    fireEvent.change(field, { target: { value: '50' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Start canary' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('login-box 7.76.0 is a canary for 50% of people'), LOAD);
    const [post] = changes(calls);
    expect(post).toEqual({ method: 'POST', path: `${P}/bundles/login-box/promote`, body: { version: '7.76.0', percent: 50 } });
    expect(CdnPromoteBody.safeParse(post!.body).success).toBe(true);
  });

  it('pins tenants typed with commas or spaces; a malformed tenant id is named on the field', async () => {
    const { view, calls } = open();
    await chooseRowAction(view, 'Actions for login-box 7.76.0', 'Pin tenants…');
    const dialog = await view.findByRole('dialog', { name: 'Pin tenants to login-box 7.76.0' }, LOAD);
    const field = within(dialog).getByLabelText('Tenant ids');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pin' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter at least one tenant id');
    fireEvent.change(field, { target: { value: 'tenant-b, ../etc' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pin' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('“../etc” is not a tenant id: letters, digits, _ and - only');
    expect(changes(calls)).toEqual([]);
    fireEvent.change(field, { target: { value: 'tenant-b, tenant_c  tenant-b' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Pin' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('2 tenants pinned to login-box 7.76.0'), LOAD);
    const [post] = changes(calls);
    expect(post).toEqual({ method: 'POST', path: `${P}/bundles/login-box/promote`, body: { version: '7.76.0', tenants: ['tenant-b', 'tenant_c'] } });
    expect(CdnPromoteBody.safeParse(post!.body).success).toBe(true);
  });

  it('rolls back, stops a canary and unpins a tenant', async () => {
    const { view, calls } = open();
    await chooseRowAction(view, 'Actions for login-box 7.78.0', 'Roll back to 7.77.0');
    const dialog = await view.findByRole('dialog', { name: 'Roll back login-box' }, LOAD);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('login-box rolled back to 7.77.0'), LOAD);
    await chooseRowAction(view, 'Actions for login-box 7.79.0', 'Stop canary');
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Canary login-box 7.79.0 stopped'), LOAD);
    await chooseRowAction(view, 'Actions for login-box 7.77.0', 'Unpin tenant tenant-a');
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Tenant tenant-a unpinned from login-box'), LOAD);
    expect(changes(calls).map((c) => `${c.method} ${c.path}`)).toEqual([
      `POST ${P}/bundles/login-box/rollback`,
      `DELETE ${P}/bundles/login-box/canary`,
      `DELETE ${P}/bundles/login-box/pins/tenant-a`,
    ]);
  });

  it("shows the server's refusal in the dialog and keeps it open (a rollout naming files that do not verify)", async () => {
    const { view } = open([{ method: 'POST', path: `${P}/bundles/login-box/promote`, error: { message: 'login-box 7.76.0: remoteEntry.js does not match its files.json', statusCode: 409 } }]);
    await chooseRowAction(view, 'Actions for login-box 7.76.0', 'Make default');
    const dialog = await view.findByRole('dialog', { name: 'Make login-box 7.76.0 the default' }, LOAD);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make default' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('does not match its files.json'), LOAD);
    expect(view.getByRole('dialog', { name: 'Make login-box 7.76.0 the default' })).toBeTruthy();
  });

  it('prunes with the number of versions to keep (a whole number of at least 1) and says how many were removed', async () => {
    const { view, calls } = open();
    fireEvent.click(await view.findByRole('button', { name: 'Prune unused versions' }, LOAD));
    const dialog = await view.findByRole('dialog', { name: 'Prune unused versions' }, LOAD);
    const field = within(dialog).getByLabelText('Versions to keep per bundle');
    fireEvent.change(field, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Prune' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter a whole number from 1 to 1,000');
    fireEvent.change(field, { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Prune' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('1 version removed'), LOAD);
    expect(changes(calls)).toEqual([{ method: 'POST', path: `${P}/prune`, body: { keep: 2 } }]);
  });
});
