/**
 * Regression: in Hebrew the copy buttons of the API tokens, Operator and SSO sections were named
 * "העתקת …" while they show "העתקה", so their name did not hold their visible label (axe
 * label-content-name-mismatch, WCAG 2.5.3): speech users saying "העתקה" could not press them.
 * The real dialogs and cards render in Hebrew and each button's accessible name (the accname
 * algorithm testing-library and browsers use) must hold its visible text as whole words, as axe's
 * rule requires, before and after copying; and every copy button's name in every catalog holds the
 * locale's visible word. (axe itself cannot run this rule under happy-dom: it measures glyphs on a
 * canvas. The e2e of applications runs it in Chromium, in Hebrew.)
 */
import { fireEvent, render, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiToken, SsoConfiguration } from '@gatehouse/shared/wire';
import type { Messages } from '../contract';
import { I18nProvider } from '../i18n/i18n-context';
import { loadNamespaces, translatorFor } from '../i18n/registry';
import { CopyField, TokenCreatedDialog } from './api-tokens/token-created-dialog';
import { ApplicationSecretDialog } from './operator/application-dialog';
import { GuideCard } from './sso/guide-card';
import { DomainsCard } from './sso/domains-card';
import type { SsoApi } from './sso/sso-api';

const he = translatorFor('he');

function Hebrew({ children }: { children: ReactNode }) {
  return (
    <I18nProvider value={he}>
      <div dir="rtl" lang="he">{children}</div>
    </I18nProvider>
  );
}

const words = (text: string) => text.toLocaleLowerCase('he').split(/[\s:,.]+/).filter(Boolean);

/** The buttons of `root` whose accessible name does not hold their visible text as whole words (axe's label-content-name-mismatch condition). */
function labelInName(root: HTMLElement): { violations: string[]; checked: number } {
  // testing-library hands a name matcher each button's computed accessible name.
  const named: { name: string; button: Element }[] = [];
  within(root).queryAllByRole('button', { name: (name, button) => (named.push({ name, button }), true) });
  const labelled = named.filter(({ button }) => button.hasAttribute('aria-label'));
  const violations = labelled.filter(({ name: accessible, button }) => {
    const name = words(accessible);
    const visible = words(button.textContent ?? '');
    return !name.some((_, at) => visible.every((word, i) => name[at + i] === word));
  });
  return { violations: violations.map(({ name, button }) => `${button.textContent} / ${name}`), checked: labelled.length };
}

/** The check over `root`, then again after each copy button was pressed (its name is "הועתק: …" then). */
async function expectCopyButtonsNamedByTheirLabel(root: HTMLElement, buttons: number) {
  const before = labelInName(root);
  expect(before.violations).toEqual([]);
  expect(before.checked).toBeGreaterThanOrEqual(buttons);
  const copy = within(root).getAllByRole('button', { name: /^העתקה/ });
  expect(copy).toHaveLength(buttons);
  for (const button of copy) fireEvent.click(button);
  await waitFor(() => expect(within(root).getAllByRole('button', { name: /^הועתק: / })).toHaveLength(buttons));
  expect(labelInName(root).violations).toEqual([]);
}

const token: CreatedApiToken = {
  id: 't1', clientId: 'client-1', type: 'ClientCredentials', description: 'CI', createdAt: '2026-01-01T00:00:00.000Z', roleIds: [], expiresInMinutes: null, expires: null, userId: null, secret: 's3cret',
} as CreatedApiToken;

const config: SsoConfiguration = {
  id: 'c1', type: 'saml', enabled: false, roleIds: [], groups: [], signRequest: true,
  domains: [{ id: 'd1', domain: 'acme.example', validated: false, generatedVerification: 'gatehouse-verification=abc' }],
  acsUrl: 'https://id.example.com/auth/saml/callback', spEntityId: 'https://id.example.com/saml', spCertificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
  createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
} as SsoConfiguration;

beforeAll(async () => {
  await loadNamespaces('he', ['shell', 'apiTokens', 'operator', 'sso', 'provisioning']);
  // A page clipboard that accepts, so each button reaches its "copied" state.
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async () => undefined } });
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe('copy buttons in Hebrew: the name holds the visible word (label in name)', () => {
  it('finds the old wording (a name starting "העתקת") on a copy button, so the checks below can fail', () => {
    const { container } = render(<Hebrew><CopyField label="אסימון" copyLabel="העתקת האסימון" value="x" /></Hebrew>);
    expect(labelInName(container).violations).toEqual(['העתקה / העתקת האסימון']);
  });

  it('API tokens: the created token dialog (client id and secret)', async () => {
    const { container } = render(<Hebrew><TokenCreatedDialog token={token} onClose={() => {}} /></Hebrew>);
    await expectCopyButtonsNamedByTheirLabel(container, 2);
  });

  it("Operator: a hosted-login client's secret dialog (client id and secret) and the billing webhook address", async () => {
    const { container } = render(
      <Hebrew>
        <ApplicationSecretDialog clientId="client-1" secret="s3cret" onClose={() => {}} />
        <CopyField label={he.t('operator.billing.webhookUrl')} copyLabel={he.t('operator.billing.copyWebhookUrl')} value="https://id.example.com/billing/webhook" />
      </Hebrew>,
    );
    await expectCopyButtonsNamedByTheirLabel(container, 3);
  });

  it("SSO: the guide's ACS URL, entity id and certificate, and a domain's TXT record", async () => {
    const sso = {} as SsoApi;
    const { container } = render(
      <Hebrew>
        <GuideCard config={config} provider="okta" onProvider={() => {}} origin="https://id.example.com" />
        <DomainsCard config={config} sso={sso} canWrite={false} onSaved={() => {}} />
      </Hebrew>,
    );
    await expectCopyButtonsNamedByTheirLabel(container, 4);
  });
});

describe('copy button names in every catalog', () => {
  const catalogs = import.meta.glob<Messages>('../i18n/*/*.ts', { eager: true, import: 'default' });
  const COPY_LABELS = [
    'apiTokens.created.copyClientId', 'apiTokens.created.copyToken', 'apiTokens.created.copySecret',
    'operator.billing.copyWebhookUrl', 'operator.applications.copyClientId', 'operator.applications.copySecret',
    'sso.guide.copy', 'sso.domains.copyTxt', 'provisioning.token.copy', 'provisioning.copyBaseUrl',
  ];

  it.each(['en', 'de', 'es', 'he'])('%s: each copy button name holds the visible "Copy" word of the locale', (locale) => {
    const messages: Record<string, string> = Object.assign({}, ...Object.entries(catalogs).filter(([path]) => path.includes(`/${locale}/`)).map(([, m]) => m));
    const visible = messages['common.copy']!.toLocaleLowerCase(locale);
    const wrong = COPY_LABELS.filter((key) => !messages[key]!.toLocaleLowerCase(locale).split(/[\s:]+/).includes(visible));
    expect(wrong).toEqual([]);
  });
});
