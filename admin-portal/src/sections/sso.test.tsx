import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Role, SsoConfiguration } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import SsoSection from './sso';

const BASE = '/identity/resources/sso/v1/configurations';
const ROLES: Role[] = [
  { id: 'r-admin', key: 'Admin', name: 'Admin', description: null, isDefault: false, permissions: [], tenantId: 't', userCount: 1, createdAt: '' },
  { id: 'r-read', key: 'ReadOnly', name: 'Read only', description: null, isDefault: true, permissions: [], tenantId: 't', userCount: 1, createdAt: '' },
];
const DAY = 86_400_000;
const fail = (statusCode: number, message: string) => Object.assign(new Error(message), { kind: 'GatehouseError', statusCode, errorCode: 'ER-01001', message });

interface Call { method: string; path: string; body?: Record<string, unknown> }

function samlConfig(overrides: Partial<SsoConfiguration> = {}): SsoConfiguration {
  return {
    id: 'c1', type: 'saml', enabled: false, domains: [], roleIds: [], groups: [], signRequest: false,
    acsUrl: 'https://id.example.com/identity/resources/auth/v1/user/saml/c1/acs',
    spEntityId: 'https://id.example.com/identity/resources/auth/v1/user/saml/c1/metadata',
    spMetadataUrl: 'https://id.example.com/identity/resources/auth/v1/user/saml/c1/metadata',
    spCertificate: null, idpEntityId: null, ssoEndpoint: null, publicCertificate: null, publicCertificateExpiresAt: null, metadataUrl: null,
    createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

/**
 * A small model of the server's SSO configuration API with seed 001 section 5's rules: the SAML
 * configuration is saved only with a domain, and a changed domain clears the endpoint, certificate
 * and signRequest; a domain validates once `published` holds its TXT value.
 */
function ssoServer(initial: SsoConfiguration[] = []) {
  const calls: Call[] = [];
  let configs = [...initial];
  const published = new Set<string>();
  let next = 1;
  const put = (config: SsoConfiguration) => {
    configs = configs.map((c) => (c.id === config.id ? config : c));
    return config;
  };
  const api = {
    async request(method: string, path: string, options: { body?: Record<string, unknown> } = {}) {
      calls.push({ method, path, ...(options.body ? { body: options.body } : {}) });
      const body = options.body ?? {};
      if (path === '/identity/resources/roles/v1') return ROLES;
      if (path === BASE && method === 'GET') return configs;
      if (path === BASE && method === 'POST') {
        const created = body.type === 'saml' ? samlConfig({ id: `c${next++}`, enabled: Boolean(body.enabled) }) : { ...samlConfig({ id: `c${next++}`, type: 'oidc' }), oidc: { issuer: String((body.oidc as { issuer: string }).issuer), clientId: 'x', scopes: 'openid', hasClientSecret: true } };
        configs = [...configs, created];
        return created;
      }
      const match = /^\/identity\/resources\/sso\/v1\/configurations\/([^/]+)(\/.*)?$/.exec(path)!;
      const config = configs.find((c) => c.id === match[1])!;
      const rest = match[2] ?? '';
      if (rest === '' && method === 'PATCH') return put({ ...config, ...(body as Partial<SsoConfiguration>) });
      if (rest === '' && method === 'DELETE') {
        configs = configs.filter((c) => c.id !== config.id);
        return undefined;
      }
      if (rest === '/saml') {
        const domain = String(body.domain ?? '');
        if (!domain) throw fail(400, 'domain: a SAML configuration is saved only when a domain is set');
        const current = config.domains[0];
        if (current && current.domain !== domain) {
          return put({ ...config, ssoEndpoint: null, publicCertificate: null, publicCertificateExpiresAt: null, signRequest: false, domains: [{ id: `d${next++}`, domain, validated: false, generatedVerification: `gatehouse-verification=v${next}` }, ...config.domains.slice(1)] });
        }
        if (body.publicCertificate === 'not a certificate') throw fail(400, 'publicCertificate must be an X.509 certificate (PEM)');
        const domains = current ? config.domains : [{ id: `d${next++}`, domain, validated: false, generatedVerification: `gatehouse-verification=v${next}` }];
        return put({ ...config, domains, ssoEndpoint: (body.ssoEndpoint as string) ?? config.ssoEndpoint, ...(body.publicCertificate ? { publicCertificate: 'PEM', publicCertificateExpiresAt: new Date(Date.now() + 400 * DAY).toISOString() } : {}), idpEntityId: (body.idpEntityId as string) ?? config.idpEntityId });
      }
      if (rest === '/metadata/url') {
        if (!String(body.url).startsWith('https://')) throw fail(400, 'url must be an https URL');
        return put({ ...config, metadataUrl: String(body.url), idpEntityId: 'https://idp.example.com/entity', ssoEndpoint: 'https://idp.example.com/sso', publicCertificate: 'PEM', publicCertificateExpiresAt: new Date(Date.now() + 400 * DAY).toISOString() });
      }
      if (rest === '/domains' && method === 'POST') {
        const domain = String(body.domain);
        return put({ ...config, domains: [...config.domains, { id: `d${next++}`, domain, validated: false, generatedVerification: `gatehouse-verification=v${next}` }] });
      }
      const domainMatch = /^\/domains\/([^/]+)(\/validate)?$/.exec(rest);
      if (domainMatch) {
        const entry = config.domains.find((d) => d.id === domainMatch[1])!;
        if (method === 'DELETE') return put({ ...config, domains: config.domains.filter((d) => d !== entry) });
        if (!published.has(entry.generatedVerification)) throw fail(400, `No TXT record "${entry.generatedVerification}" was found on ${entry.domain}; add it to the domain's DNS and try again`);
        return put({ ...config, domains: config.domains.map((d) => (d === entry ? { ...d, validated: true } : d)) });
      }
      if (rest === '/roles') return put({ ...config, roleIds: body.roleIds as string[] });
      if (rest === '/groups') return put({ ...config, groups: (body.groups as { group: string; roleIds: string[] }[]).map((g, i) => ({ id: `g${i}`, ...g })) });
      throw new Error(`unexpected ${method} ${path}`);
    },
  } as unknown as GatehouseApi;
  return { api, calls, published, configs: () => configs };
}

const WRITER = ['fe.secure.read.samlConfiguration', 'fe.secure.write.samlConfiguration', 'fe.secure.read.roles'];

function open(server: ReturnType<typeof ssoServer>, permissions = WRITER) {
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  render(<SsoSection title="Single sign-on" headingId="sso-heading" user={user} snapshot={store.getSnapshot()} store={store} api={server.api} options={readAdminPortalOptions(undefined)} />, { container: domElement });
  return within(domElement);
}

let clipboard: string[];
beforeEach(() => {
  clipboard = [];
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void clipboard.push(text) } });
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('SSO section', () => {
  it('starts a guided setup for the chosen IdP: creates a SAML configuration turned off, and shows that IdP’s names for our values with copy buttons and its steps', async () => {
    const server = ssoServer();
    const view = open(server);
    fireEvent.click(await view.findByLabelText(/Okta/));
    fireEvent.click(view.getByRole('button', { name: 'Start setup' }));
    await view.findByRole('heading', { name: '1. Add this application in Okta' });
    expect(server.calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: BASE, body: { type: 'saml', enabled: false } });
    expect((view.getByLabelText('Single sign-on URL') as HTMLInputElement).value).toBe(samlConfig().acsUrl);
    expect((view.getByLabelText('Audience URI (SP Entity ID)') as HTMLInputElement).value).toBe(samlConfig().spEntityId);
    fireEvent.click(view.getByRole('button', { name: 'Copy Single sign-on URL' }));
    await waitFor(() => expect(clipboard).toEqual([samlConfig().acsUrl]));
    expect(view.getByRole('link', { name: 'Download the service provider metadata' }).getAttribute('href')).toBe(samlConfig().spMetadataUrl);
    expect(view.getAllByRole('listitem').some((li) => /Okta Admin Console/.test(li.textContent ?? ''))).toBe(true);
    // Another IdP's guide: its own names for the same values.
    fireEvent.change(view.getByLabelText('Show the steps for'), { target: { value: 'entra' } });
    expect((view.getByLabelText('Reply URL (Assertion Consumer Service URL)') as HTMLInputElement).value).toBe(samlConfig().acsUrl);
  });

  it('offers OIDC with the redirect URI to register, and takes the client (issuer named under its field when refused)', async () => {
    const server = ssoServer();
    const failing = server.api.request.bind(server.api);
    (server.api as { request: unknown }).request = async (method: string, path: string, options?: { body?: Record<string, unknown> }) => {
      if (method === 'POST' && path === BASE && String((options?.body?.oidc as { issuer?: string })?.issuer).startsWith('http:')) throw fail(400, 'oidc.issuer must be an https URL');
      return failing(method as 'GET', path, options);
    };
    const view = open(server);
    fireEvent.click(await view.findByLabelText(/Other OpenID Connect provider/));
    fireEvent.change(view.getByLabelText('Issuer URL'), { target: { value: 'http://idp.example.com' } });
    fireEvent.change(view.getByLabelText('Client ID'), { target: { value: 'client-1' } });
    fireEvent.change(view.getByLabelText('Client secret'), { target: { value: 's3cret' } });
    fireEvent.click(view.getByRole('button', { name: 'Start setup' }));
    expect((await view.findByRole('alert')).textContent).toBe('oidc.issuer must be an https URL');
    expect(view.getByLabelText('Issuer URL').getAttribute('aria-invalid')).toBe('true');
    expect((view.getByLabelText('Client secret') as HTMLInputElement).value).toBe('s3cret');
    fireEvent.change(view.getByLabelText('Issuer URL'), { target: { value: 'https://idp.example.com' } });
    fireEvent.click(view.getByRole('button', { name: 'Start setup' }));
    const uri = (await view.findByLabelText('Redirect URI')) as HTMLInputElement;
    expect(uri.value).toBe(`${window.location.origin}/account/oidc/callback`);
  });

  it('saves the SAML configuration typed in only with a domain (seed 001 section 5): the refusal shows under Domain and nothing typed is lost', async () => {
    const server = ssoServer([samlConfig()]);
    const view = open(server);
    fireEvent.click(await view.findByRole('tab', { name: 'Enter manually' }));
    const form = within(view.getByRole('form', { name: 'Enter manually' }));
    fireEvent.change(form.getByLabelText('Sign-in URL (SSO endpoint)'), { target: { value: 'https://idp.example.com/sso' } });
    fireEvent.change(form.getByLabelText('Signing certificate'), { target: { value: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    const problem = await view.findByText('a SAML configuration is saved only when a domain is set');
    expect(problem.id).toBe(form.getByLabelText('Domain').getAttribute('aria-describedby')?.split(' ').find((id) => id.endsWith('-error')));
    expect((form.getByLabelText('Sign-in URL (SSO endpoint)') as HTMLInputElement).value).toBe('https://idp.example.com/sso');

    fireEvent.change(form.getByLabelText('Domain'), { target: { value: 'Acme.com' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await view.findByText('Identity provider saved');
    expect(server.calls.filter((c) => c.path === `${BASE}/c1/saml`).at(-1)!.body).toEqual({ domain: 'acme.com', ssoEndpoint: 'https://idp.example.com/sso', publicCertificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', idpEntityId: '', signRequest: false });
    expect(view.getAllByText('https://idp.example.com/sso').length).toBeGreaterThan(0);
  });

  it('takes the IdP from its metadata URL: a refused URL shows under the field and stays, a good one fills the IdP details', async () => {
    const server = ssoServer([samlConfig()]);
    const view = open(server);
    fireEvent.click(await view.findByRole('tab', { name: 'Metadata URL' }));
    const form = within(view.getByRole('form', { name: 'Metadata URL' }));
    fireEvent.change(form.getByLabelText('Metadata URL'), { target: { value: 'http://idp.example.com/metadata' } });
    fireEvent.click(form.getByRole('button', { name: 'Fetch metadata' }));
    expect((await form.findByRole('alert')).textContent).toBe('url must be an https URL');
    expect(form.getByLabelText('Metadata URL').getAttribute('aria-invalid')).toBe('true');
    expect((form.getByLabelText('Metadata URL') as HTMLInputElement).value).toBe('http://idp.example.com/metadata');
    fireEvent.change(form.getByLabelText('Metadata URL'), { target: { value: 'https://idp.example.com/metadata' } });
    fireEvent.click(form.getByRole('button', { name: 'Fetch metadata' }));
    await view.findByText('Identity provider saved');
    expect(view.getByText('https://idp.example.com/entity')).toBeTruthy();
    expect(server.calls.filter((c) => c.path === `${BASE}/c1/metadata/url`).map((c) => c.body)).toEqual([{ url: 'http://idp.example.com/metadata' }, { url: 'https://idp.example.com/metadata' }]);
  });

  it('changing the domain sends it alone, says the endpoint and certificate were cleared, and empties those fields', async () => {
    const server = ssoServer([samlConfig({ domains: [{ id: 'd0', domain: 'acme.com', validated: true, generatedVerification: 'gatehouse-verification=x' }], ssoEndpoint: 'https://idp.example.com/sso', publicCertificate: 'PEM', publicCertificateExpiresAt: new Date(Date.now() + 400 * DAY).toISOString() })]);
    const view = open(server);
    fireEvent.click(await view.findByRole('tab', { name: 'Enter manually' }));
    const form = within(view.getByRole('form', { name: 'Enter manually' }));
    fireEvent.change(form.getByLabelText('Domain'), { target: { value: 'acme.io' } });
    expect(view.getByText(/Changing the domain clears the sign-in URL/)).toBeTruthy();
    expect((form.getByLabelText('Sign-in URL (SSO endpoint)') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(form.getByRole('button', { name: 'Save new domain' }));
    await view.findByText(/Domain changed\. Enter the sign-in URL and certificate again/);
    expect(server.calls.filter((c) => c.method === 'PUT').at(-1)).toEqual({ method: 'PUT', path: `${BASE}/c1/saml`, body: { domain: 'acme.io' } });
    expect((form.getByLabelText('Sign-in URL (SSO endpoint)') as HTMLInputElement).value).toBe('');
    expect(server.configs()[0]!.ssoEndpoint).toBeNull();
  });

  it('adds a domain, shows the TXT record to publish with a copy button, and validates it once published (pending → validated)', async () => {
    const server = ssoServer([samlConfig()]);
    const view = open(server);
    fireEvent.change(await view.findByLabelText('Domain', { selector: 'input[id$="-domain"]:not([id*="idp"])' }), { target: { value: 'acme.com' } });
    fireEvent.click(view.getByRole('button', { name: 'Add domain' }));
    const entry = await view.findByRole('listitem', { name: 'acme.com' });
    expect(within(entry).getByText('Pending')).toBeTruthy();
    const txt = within(entry).getByLabelText('TXT record value') as HTMLInputElement;
    expect(txt.value).toMatch(/^gatehouse-verification=/);
    fireEvent.click(within(entry).getByRole('button', { name: 'Copy the TXT record of acme.com' }));
    await waitFor(() => expect(clipboard).toEqual([txt.value]));

    fireEvent.click(within(entry).getByRole('button', { name: 'Validate' }));
    expect((await view.findByRole('alert')).textContent).toContain('No TXT record');
    server.published.add(txt.value);
    fireEvent.click(within(entry).getByRole('button', { name: 'Validate' }));
    await waitFor(() => expect(within(view.getByRole('listitem', { name: 'acme.com' })).getByText('Validated')).toBeTruthy());
    expect(within(view.getByRole('listitem', { name: 'acme.com' })).queryByLabelText('TXT record value')).toBeNull();
  });

  it('turns SSO on only once the IdP and a validated domain are set, and off again', async () => {
    const server = ssoServer([samlConfig({ domains: [{ id: 'd0', domain: 'acme.com', validated: false, generatedVerification: 'gatehouse-verification=x' }] })]);
    const view = open(server);
    const turnOn = await view.findByRole('button', { name: 'Turn on' });
    expect((turnOn as HTMLButtonElement).disabled).toBe(true);
    expect(view.getByText(/It can be turned on once/)).toBeTruthy();
    server.published.add('gatehouse-verification=x');
    fireEvent.click(view.getByRole('button', { name: 'Validate' }));
    fireEvent.click(view.getByRole('tab', { name: 'Enter manually' }));
    await view.findByText('Validated');
    const form = within(view.getByRole('form', { name: 'Enter manually' }));
    fireEvent.change(form.getByLabelText('Sign-in URL (SSO endpoint)'), { target: { value: 'https://idp.example.com/sso' } });
    fireEvent.change(form.getByLabelText('Signing certificate'), { target: { value: 'PEM TEXT' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await view.findByText('Identity provider saved');
    await waitFor(() => expect((view.getByRole('button', { name: 'Turn on' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(view.getByRole('button', { name: 'Turn on' }));
    await view.findByText('Single sign-on is on');
    expect(server.calls.find((c) => c.method === 'PATCH')).toEqual({ method: 'PATCH', path: `${BASE}/c1`, body: { enabled: true } });
    fireEvent.click(view.getByRole('button', { name: 'Turn off' }));
    await view.findByText('Single sign-on is off');
  });

  it('flags an IdP certificate that expires within 30 days, and one that has expired; not one valid for longer', async () => {
    const soon = ssoServer([samlConfig({ ssoEndpoint: 'https://x.okta.com/app/sso', publicCertificate: 'PEM', publicCertificateExpiresAt: new Date(Date.now() + 12 * DAY).toISOString() })]);
    const view = open(soon);
    expect((await view.findByText(/signing certificate expires in 12 days/)).getAttribute('role')).toBe('status');
    expect(view.getByText('Expires soon')).toBeTruthy();
    // The Okta guide opens by itself: the IdP is recognised from its sign-in URL.
    expect(view.getByRole('heading', { name: '1. Add this application in Okta' })).toBeTruthy();
    document.body.innerHTML = '';

    const expired = open(ssoServer([samlConfig({ publicCertificate: 'PEM', publicCertificateExpiresAt: new Date(Date.now() - DAY).toISOString() })]));
    expect((await expired.findByText(/signing certificate expired on/)).getAttribute('role')).toBe('alert');
    document.body.innerHTML = '';

    const fine = open(ssoServer([samlConfig({ publicCertificate: 'PEM', publicCertificateExpiresAt: new Date(Date.now() + 60 * DAY).toISOString() })]));
    await fine.findByText(/^Expires /);
    expect(fine.queryByText(/signing certificate expires in/)).toBeNull();
    expect(fine.queryByText('Expires soon')).toBeNull();
  });

  it('sets default roles and group-to-role mappings; an empty group name is refused under its field', async () => {
    const server = ssoServer([samlConfig()]);
    const view = open(server);
    const roles = await view.findByRole('form', { name: '4. Roles' });
    fireEvent.click(await within(roles).findByLabelText('Read only', { selector: 'input[id*="-default-"]' }));
    fireEvent.click(within(roles).getByRole('button', { name: 'Add group mapping' }));
    fireEvent.click(within(roles).getByRole('button', { name: 'Save' }));
    expect(await within(roles).findByText('Enter the group name')).toBeTruthy();
    expect(server.calls.some((c) => c.path.endsWith('/roles'))).toBe(false);
    fireEvent.change(within(roles).getByLabelText('Group name in the identity provider'), { target: { value: 'engineering' } });
    const mapping = within(roles).getByRole('group', { name: 'Group mapping 1' });
    fireEvent.click(within(mapping).getByLabelText('Admin'));
    fireEvent.click(within(roles).getByRole('button', { name: 'Save' }));
    await view.findByText('Roles saved');
    expect(server.calls.filter((c) => c.method === 'PUT').map((c) => [c.path, c.body])).toEqual([
      [`${BASE}/c1/roles`, { roleIds: ['r-read'] }],
      [`${BASE}/c1/groups`, { groups: [{ group: 'engineering', roleIds: ['r-admin'] }] }],
    ]);
  });

  it('is read-only without fe.secure.write.samlConfiguration: the configuration shows, nothing can be changed', async () => {
    const server = ssoServer([samlConfig({ domains: [{ id: 'd0', domain: 'acme.com', validated: false, generatedVerification: 'gatehouse-verification=x' }] })]);
    const view = open(server, ['fe.secure.read.samlConfiguration']);
    await view.findByText(/You can view this configuration/);
    expect(view.getByText('acme.com')).toBeTruthy();
    for (const name of ['Turn on', 'Add domain', 'Validate', 'Fetch metadata', 'Save', 'Delete this configuration']) expect(view.queryByRole('button', { name }), name).toBeNull();
    expect(view.queryByRole('tab')).toBeNull();
    expect(server.calls.every((c) => c.method === 'GET')).toBe(true);
  });

  it('without a configuration, a reader is told SSO is not set up (no setup offered)', async () => {
    const view = open(ssoServer(), ['fe.secure.read.samlConfiguration']);
    await view.findByText('Single sign-on is not set up for this account.');
    expect(view.queryByRole('button', { name: 'Start setup' })).toBeNull();
  });
});
