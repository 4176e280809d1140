/**
 * The CDN tab's "Publish a version" (issue 18): a picked version folder is shown (bundle, version,
 * files) before anything is sent; the files go as base64 by their path inside the folder; the
 * server's refusal shows on the folder field with the dialog open; the list is read again after.
 */
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CdnPublishBody, type CdnVersionsResponse } from '@gatehouse/shared/wire';
import { type Call, type Failure } from '../../test/section-harness';
import { CDN_API, openCdnTab } from './cdn-tab-harness';

const P = CDN_API;
const VERSIONS: CdnVersionsResponse = {
  bundles: [{ bundle: 'login-box', default: '7.78.0', previous: null, canary: null, pins: [], versions: [{ version: '7.78.0', state: ['default'], wireBytes: 39_936, publishedAt: Date.UTC(2026, 10, 20, 9, 30) }] }],
};
const LOAD = { timeout: 5000 };

/** A File as a webkitdirectory input gives it: named by its path from the picked folder. */
function picked(relativePath: string, text: string): File {
  const file = new File([text], relativePath.split('/').pop()!);
  Object.defineProperty(file, 'webkitRelativePath', { value: relativePath });
  return file;
}
const FILES_JSON = JSON.stringify({ 'login-box/7.79.0/remoteEntry.js': 'sha384-' + 'A'.repeat(64) });
const folder = (top = '7.79.0', filesJson = FILES_JSON) => [picked(`${top}/files.json`, filesJson), picked(`${top}/remoteEntry.js`, 'export {};'), picked(`${top}/assets/chunk.js`, 'x'), picked(`${top}/.vite/manifest.json`, '{}')];

function open(failures: Failure[] = []) {
  return openCdnTab((method, path) => {
    if (method === 'GET' && path === `${P}/versions`) return VERSIONS;
    if (path === `${P}/publish`) return { outcome: 'published', bundle: 'login-box', version: '7.79.0', files: 2, wireBytes: 100 };
    return undefined;
  }, failures);
}
const gets = (calls: Call[]) => calls.filter((c) => c.method === 'GET').length;

async function openDialog(view: ReturnType<typeof within>) {
  fireEvent.click(await view.findByRole('button', { name: 'Publish a version…' }, LOAD));
  const dialog = await view.findByRole('dialog', { name: 'Publish a version' }, LOAD);
  return { dialog, input: within(dialog).getByLabelText('Version folder') as HTMLInputElement };
}

// The admin-portal project runs with isolate: false: unmount what each test rendered.
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

describe('Operator CDN tab: publish a version', { timeout: 30_000 }, () => {
  it('shows the picked folder, sends its files (dot entries left out) and refreshes the list', async () => {
    const { view, calls } = open();
    const { dialog, input } = await openDialog(view);
    expect(input.hasAttribute('webkitdirectory')).toBe(true);
    const publish = within(dialog).getByRole('button', { name: 'Publish' }) as HTMLButtonElement;
    expect(publish.disabled).toBe(true);
    fireEvent.change(input, { target: { files: folder() } });
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe('login-box 7.79.0: 3 files, 0.1 kB'), LOAD);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    const listed = gets(calls);
    fireEvent.click(publish);
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('login-box 7.79.0 published'), LOAD);
    const [post] = calls.filter((c) => c.method === 'POST');
    expect(post!.path).toBe(`${P}/publish`);
    const body = post!.body as { bundle: string; version: string; files: Record<string, string> };
    expect([body.bundle, body.version, Object.keys(body.files)]).toEqual(['login-box', '7.79.0', ['assets/chunk.js', 'files.json', 'remoteEntry.js']]);
    expect(atob(body.files['remoteEntry.js']!)).toBe('export {};');
    expect(CdnPublishBody.safeParse(body).success).toBe(true);
    expect(gets(calls)).toBeGreaterThan(listed);
    expect(view.queryByRole('dialog')).toBeNull();
  });

  it('refuses a folder that is not a version folder, or holds an odd name, on the field before anything is sent', async () => {
    const { view, calls } = open();
    const { dialog, input } = await openDialog(view);
    fireEvent.change(input, { target: { files: [picked('login-box/remoteEntry.js', 'x')] } });
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('No readable files.json'), LOAD);
    fireEvent.change(input, { target: { files: folder('7.80.0') } });
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('“7.80.0” is not a version folder: its files.json must name bundle/7.80.0/'), LOAD);
    fireEvent.change(input, { target: { files: [...folder(), picked('7.79.0/evil file.js', 'x')] } });
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('“evil file.js” cannot be published'), LOAD);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect((within(dialog).getByRole('button', { name: 'Publish' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("shows the server's refusal on the folder field and keeps the dialog open", async () => {
    const { view } = open([{ method: 'POST', path: `${P}/publish`, error: { message: 'files: refused, nothing changed: login-box/7.79.0/remoteEntry.js does not match its sha384 in files.json', statusCode: 400 } }]);
    const { dialog, input } = await openDialog(view);
    fireEvent.change(input, { target: { files: folder() } });
    await within(dialog).findByRole('status', {}, LOAD);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('does not match its sha384'), LOAD);
    expect(input.getAttribute('aria-describedby')).toContain('-error');
    expect((within(dialog).getByRole('button', { name: 'Publish' }) as HTMLButtonElement).disabled).toBe(false);
    expect(view.getByRole('dialog', { name: 'Publish a version' })).toBeTruthy();
  });
});
