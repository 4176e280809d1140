import { useId } from 'react';
import type { SsoConfiguration } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { CopyField } from '../api-tokens/token-created-dialog';
import { GUIDES, oidcRedirectUri, PROVIDERS, type ProviderId } from './providers';

/**
 * Step 1 of the guided setup: the values to paste into the identity provider, each with a copy
 * button (ACS URL, SP entity id, our SP metadata to download, our signing certificate; for OIDC the
 * redirect URI), and that provider's own steps. The guide shown can be switched among the IdPs of
 * the configuration's protocol.
 */
export function GuideCard({ config, provider, onProvider, origin }: { config: SsoConfiguration; provider: ProviderId; onProvider: (id: ProviderId) => void; origin: string }) {
  const t = useT();
  const id = useId();
  const guide = GUIDES[provider];
  const name = t.t(guide.name);
  const choices = PROVIDERS.filter((p) => GUIDES[p].protocol === config.type);
  return (
    <section className="gh-ap-sec-card gh-ap-sso-card" aria-labelledby={`${id}-title`}>
      <div className="gh-ap-sso-card-head">
        <h3 id={`${id}-title`} className="gh-ap-sec-card-title">{t.t('sso.guide.title', { provider: name })}</h3>
        {choices.length > 1 && (
          <div className="gh-ap-field gh-ap-sso-provider">
            <label className="gh-ap-label" htmlFor={`${id}-provider`}>{t.t('sso.guide.provider')}</label>
            <select id={`${id}-provider`} className="gh-ap-select" value={provider} onChange={(e) => onProvider(e.target.value as ProviderId)}>
              {choices.map((p) => <option key={p} value={p}>{t.t(GUIDES[p].name)}</option>)}
            </select>
          </div>
        )}
      </div>
      <p className="gh-ap-hint">{t.t(config.type === 'saml' ? 'sso.guide.samlIntro' : 'sso.guide.oidcIntro', { provider: name })}</p>
      {config.type === 'saml' ? (
        <>
          <CopyField label={t.t(guide.acsLabel)} copyLabel={t.t('sso.guide.copy', { what: t.t(guide.acsLabel) })} value={config.acsUrl ?? ''} />
          <CopyField label={t.t(guide.entityIdLabel)} copyLabel={t.t('sso.guide.copy', { what: t.t(guide.entityIdLabel) })} value={config.spEntityId ?? ''} />
          <p className="gh-ap-sso-download">
            <a className="gh-ap-link" href={config.spMetadataUrl} download="gatehouse-sp-metadata.xml" target="_blank" rel="noopener noreferrer">{t.t('sso.guide.downloadMetadata')}</a>
            <span className="gh-ap-hint"> {t.t('sso.guide.downloadHint')}</span>
          </p>
          {config.spCertificate ? (
            <CopyField label={t.t('sso.guide.spCertificate')} copyLabel={t.t('sso.guide.copy', { what: t.t('sso.guide.spCertificate') })} value={config.spCertificate} />
          ) : (
            <p className="gh-ap-hint">{t.t('sso.guide.noSpCertificate')}</p>
          )}
        </>
      ) : (
        <CopyField label={t.t('sso.guide.redirectUri')} copyLabel={t.t('sso.guide.copy', { what: t.t('sso.guide.redirectUri') })} value={oidcRedirectUri(origin)} />
      )}
      <section aria-labelledby={`${id}-steps`}>
        <h4 id={`${id}-steps`} className="gh-ap-sso-subtitle">{t.t('sso.guide.stepsTitle', { provider: name })}</h4>
        <ol className="gh-ap-sso-steps">
          {guide.steps.map((key) => <li key={key}>{t.t(key)}</li>)}
        </ol>
      </section>
    </section>
  );
}
