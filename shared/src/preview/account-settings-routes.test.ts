import { expect, it } from 'vitest';
import { createApiClient } from '../api/client';
import { AccountPaths } from '../wire/account/paths';
import { AccountSettings } from '../wire/account/settings';
import { AuditPaths } from '../wire/admin/audit-paths';
import { AuditsResponse } from '../wire/admin/audits';
import { isGatehouseError } from '../errors';
import { createPreviewFetch } from './preview-api';

const BASE = 'https://auth.example.test/api';

function setup() {
  const fetch = createPreviewFetch({ baseUrl: BASE, now: () => Date.UTC(2026, 1, 20, 15), sleep: async () => {} });
  return createApiClient({ baseUrl: BASE, clientId: 'preview', getAccessToken: () => 'preview-access-token', fetch, retry: { attempts: 1 } });
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!isGatehouseError(error)) throw new Error(`expected a GatehouseError, got ${String(error)}`);
  return [error.statusCode, error.message];
}

it("reads the sample account's settings and saves a change, audited with the old and new values", async () => {
  const api = setup();
  expect(AccountSettings.parse(await api.request('GET', AccountPaths.accountSettings))).toMatchObject({ companyName: 'Preview Inc.', timezone: 'UTC', currency: 'USD' });
  const saved = AccountSettings.parse(await api.request('PUT', AccountPaths.accountSettings, { body: { companyName: ' Preview Two ', timezone: 'Europe/Paris', website: '' } }));
  expect(saved).toMatchObject({ companyName: 'Preview Two', timezone: 'Europe/Paris', website: null, currency: 'USD', updatedAt: '2026-02-20T15:00:00.000Z' });
  expect(AccountSettings.parse(await api.request('GET', AccountPaths.accountSettings)).companyName).toBe('Preview Two');
  const { data } = AuditsResponse.parse(await api.request('GET', AuditPaths.audits));
  expect(data[0]).toMatchObject({ action: 'Account settings updated' });
  expect(data[0]!.description).toContain('"companyName":"Preview Inc."');
  expect(data[0]!.description).toContain('"companyName":"Preview Two"');
});

it('refuses a bad field with a 400 naming it, and changes nothing', async () => {
  const api = setup();
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ companyName: '' }, 'companyName is required'],
    [{ timezone: 'Mars/Olympus' }, 'timezone must be an IANA time zone such as Europe/Paris'],
    [{ currency: 'XYZ1' }, 'currency must be an ISO 4217 code such as USD'],
    [{ website: 'javascript:alert(1)' }, 'website must be a web address starting with http:// or https://, written out in full (such as https://example.com)'],
    [{ dateFormat: 'YY' }, 'dateFormat must be one of MM/DD/YYYY, DD/MM/YYYY, YYYY-MM-DD, DD.MM.YYYY, D MMM YYYY'],
    [{ loginColor: 'red' }, 'loginColor must be a hex color such as #3366ff'],
    [{ companyName: 'Fine', logo: 'data:image/png;base64,AAAA' }, 'logo: uploading a logo is not available in preview mode'],
  ];
  for (const [body, message] of cases) expect(await failure(api.request('PUT', AccountPaths.accountSettings, { body }))).toEqual([400, message]);
  expect(AccountSettings.parse(await api.request('GET', AccountPaths.accountSettings))).toMatchObject({ companyName: 'Preview Inc.', timezone: 'UTC', website: 'https://preview.example', updatedAt: null });
});
