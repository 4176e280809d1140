/**
 * The server's own pages (the demo host page and the hosted login and portal pages) load the loader
 * the live manifest names, with its SRI: after an operator promotes a loader version or rolls it
 * back (issue 18), they follow at once, as /cdn/cdn-manifest.json does, whatever the build's
 * cdn-manifest.json on disk says.
 */
import { rmSync } from 'node:fs';
import { OAuthPaths, OperatorPaths } from '@gatehouse/shared/wire';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs, pathOf, superUser, type TenantAdmin } from '../../test/admin-helpers';
import { cdnDirWith, writeVersion } from '../../test/cdn-fixture';
import { describeDialects } from '../../test/harness';

const LOADER = { bundle: 'loader' };

describeDialects('the server pages load the live manifest loader', (h) => {
  let server: GatehouseServer;
  let root: TenantAdmin;
  let cdnDir: string;
  let next: { files: Record<string, string> };

  beforeEach(async () => {
    cdnDir = cdnDirWith({ loader: '1.0.0', runtime: '1.0.0', 'login-box': '1.0.0' });
    next = writeVersion(cdnDir, 'loader', '1.1.0');
    server = await h.start({ GATEHOUSE_CDN_DIR: cdnDir });
    root = await superUser(server);
  });
  afterEach(() => rmSync(cdnDir, { recursive: true, force: true }));

  /** The loader script tag of a page: its src and integrity. */
  async function loaderTag(path: string): Promise<{ src: string; integrity: string }> {
    const res = await server.app.request(path);
    expect(res.status, path).toBe(200);
    const html = await res.text();
    const tag = /<script[^>]*src="([^"]*\/cdn\/loader\/[^"]+)"[^>]*integrity="([^"]+)"/.exec(html) ?? /<script[^>]*integrity="([^"]+)"[^>]*src="([^"]*\/cdn\/loader\/[^"]+)"/.exec(html);
    expect(tag, `${path} has a loader script tag`).not.toBeNull();
    return /integrity="[^"]+"[^>]*src=/.test(tag![0]) ? { src: tag![2]!, integrity: tag![1]! } : { src: tag![1]!, integrity: tag![2]! };
  }
  const pages = ['/account/login', `${OAuthPaths.portal}`, '/oauth/account/login'];

  it('serves the promoted loader version with its integrity on the demo and hosted pages, and the previous one after a rollback', async () => {
    for (const page of pages) expect((await loaderTag(page)).src, page).toMatch(/\/cdn\/loader\/1\.0\.0\/gatehouse\.js$/);

    const promoted = await callAs(server, root, 'POST', pathOf(OperatorPaths.cdnPromote, LOADER), { body: { version: '1.1.0' } });
    expect(promoted.status).toBe(200);
    for (const page of pages) {
      expect(await loaderTag(page), page).toEqual({ src: expect.stringMatching(/\/cdn\/loader\/1\.1\.0\/gatehouse\.js$/), integrity: next.files['loader/1.1.0/gatehouse.js'] });
    }

    expect((await callAs(server, root, 'POST', pathOf(OperatorPaths.cdnRollback, LOADER))).status).toBe(200);
    for (const page of pages) expect((await loaderTag(page)).src, page).toMatch(/\/cdn\/loader\/1\.0\.0\/gatehouse\.js$/);
  });
});
