import { useId, useState, type FormEvent } from 'react';
import type { SsoConfiguration } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { OIDC_FIELDS, OidcFields } from './idp-card';
import { GUIDES, PROVIDERS, type ProviderId } from './providers';
import type { SsoApi } from './sso-api';
import { useSsoAction } from './use-sso-action';

/**
 * No configuration yet: the admin picks their identity provider; a SAML IdP gets a configuration at
 * once (turned off, so nobody is sent to it before it is tested), OIDC asks for its client first.
 */
export function StartSetup({ sso, onCreated }: { sso: SsoApi; onCreated: (config: SsoConfiguration, provider: ProviderId) => void }) {
  const t = useT();
  const id = `gh-sso-start-${useId().replace(/:/g, '')}`;
  const [provider, setProvider] = useState<ProviderId | null>(null);
  const [form, setForm] = useState({ issuer: '', clientId: '', clientSecret: '', scopes: '' });
  const action = useSsoAction(OIDC_FIELDS, (config) => onCreated(config, provider ?? 'saml'));
  const busy = action.busy !== null;
  const set = (field: keyof typeof form) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    action.clearField(`oidc.${field}` as (typeof OIDC_FIELDS)[number]);
  };

  async function start(event: FormEvent) {
    event.preventDefault();
    if (!provider) return;
    await action.run('start', () => (GUIDES[provider].protocol === 'saml' ? sso.createSaml() : sso.createOidc(form)));
  }

  return (
    <form className="gh-ap-sec-card gh-ap-sso-card" noValidate onSubmit={(e) => void start(e)} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="gh-ap-sec-card-title">{t.t('sso.start.title')}</h3>
      <p className="gh-ap-hint">{t.t('sso.start.intro')}</p>
      <fieldset className="gh-ap-fieldset">
        <legend className="gh-ap-label">{t.t('sso.start.legend')}</legend>
        <div className="gh-ap-sso-providers">
          {PROVIDERS.map((p) => (
            <label key={p} className="gh-ap-sso-provider-choice" htmlFor={`${id}-${p}`} data-checked={provider === p ? 'true' : undefined}>
              <input id={`${id}-${p}`} type="radio" name={`${id}-provider`} checked={provider === p} disabled={busy} onChange={() => setProvider(p)} />
              <span>
                <span className="gh-ap-sso-provider-name">{t.t(GUIDES[p].name)}</span>
                <span className="gh-ap-hint">{t.t(GUIDES[p].protocol === 'saml' ? 'sso.start.saml' : 'sso.start.oidc')}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {provider === 'oidc' && <OidcFields id={id} form={form} set={set} busy={busy} errors={action.errors} secretHint={t.t('sso.oidc.secretHint')} />}
      {action.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{action.error}</p>}
      <div className="gh-ap-actions">
        <button type="submit" className="gh-ap-button" disabled={busy || !provider} aria-busy={busy}>
          {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          {t.t('sso.start.submit')}
        </button>
      </div>
    </form>
  );
}
