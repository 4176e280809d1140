import { useId, useRef, useState, type FormEvent } from 'react';
import type { SsoConfiguration } from '@gatehouse/shared/wire';
import { TabPanel, Tabs } from '../../controls/tabs';
import { shortDate } from '../../format';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { TextField } from '../dialogs/text-field';
import { certificateState } from './certificate';
import type { SsoApi } from './sso-api';
import { useSsoAction } from './use-sso-action';
import { SaveActions } from './save-actions';

type Source = 'file' | 'url' | 'manual';
const SAML_FIELDS = ['domain', 'ssoEndpoint', 'publicCertificate', 'idpEntityId', 'signRequest', 'url', 'metadata'] as const;
/** The server's limit on a metadata document. */
const MAX_METADATA_BYTES = 512 * 1024;

/**
 * Step 2 for SAML: the identity provider's details, from its metadata file, its metadata URL (the
 * server fetches it), or typed in (seed 001 sections 3, 5: domain, SSO endpoint, certificate, entity
 * id, signed requests). What is configured now is shown above, with the certificate's expiry.
 */
export function SamlIdpCard({ config, sso, canWrite, now, onSaved }: { config: SsoConfiguration; sso: SsoApi; canWrite: boolean; now: number; onSaved: (config: SsoConfiguration) => void }) {
  const t = useT();
  const id = `gh-sso-idp-${useId().replace(/:/g, '')}`;
  const action = useSsoAction(SAML_FIELDS, onSaved);
  const [source, setSource] = useState<Source>('file');
  const [notice, setNotice] = useState<string | null>(null);
  const [url, setUrl] = useState(config.metadataUrl ?? '');
  const fileInput = useRef<HTMLInputElement>(null);
  const currentDomain = config.domains[0]?.domain ?? '';
  const [manual, setManual] = useState({ domain: currentDomain, ssoEndpoint: config.ssoEndpoint ?? '', publicCertificate: '', idpEntityId: config.idpEntityId ?? '', signRequest: config.signRequest });
  const cert = certificateState(config.publicCertificateExpiresAt, now);
  const domainChange = currentDomain !== '' && manual.domain.trim().toLowerCase() !== currentDomain;
  const busy = action.busy !== null;

  const done = (message: string) => () => setNotice(message);
  async function upload(file: File | null) {
    setNotice(null);
    if (!file) return;
    if (file.size > MAX_METADATA_BYTES) {
      action.setError(t.t('sso.idp.fileTooLarge', { kb: MAX_METADATA_BYTES / 1024 }));
      return;
    }
    const text = await file.text();
    if (await action.run('file', () => sso.uploadMetadata(config, text))) done(t.t('sso.idp.saved'))();
    if (fileInput.current) fileInput.current.value = '';
  }
  async function fromUrl(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    if (await action.run('url', () => sso.metadataFromUrl(config, url))) done(t.t('sso.idp.saved'))();
  }
  async function saveManual(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const changing = domainChange;
    const ok = await action.run('manual', () => sso.saveSaml(config, manual));
    if (!ok) return;
    if (changing) {
      setManual((m) => ({ ...m, ssoEndpoint: '', publicCertificate: '', signRequest: false }));
      setNotice(t.t('sso.idp.domainChanged'));
    } else {
      setManual((m) => ({ ...m, publicCertificate: '' }));
      setNotice(t.t('sso.idp.saved'));
    }
  }

  const tabs = [
    { id: 'file' as const, label: t.t('sso.idp.source.file') },
    { id: 'url' as const, label: t.t('sso.idp.source.url') },
    { id: 'manual' as const, label: t.t('sso.idp.source.manual') },
  ];
  const set = (field: keyof typeof manual) => (value: string) => {
    setManual((m) => ({ ...m, [field]: value }));
    action.clearField(field as (typeof SAML_FIELDS)[number]);
  };

  return (
    <section className="gh-ap-sec-card gh-ap-sso-card" aria-labelledby={`${id}-title`} aria-busy={busy}>
      <h3 id={`${id}-title`} className="gh-ap-sec-card-title">{t.t('sso.idp.title')}</h3>
      <dl className="gh-ap-sso-facts">
        <div><dt>{t.t('sso.idp.entityId')}</dt><dd><code className="gh-ap-mono">{config.idpEntityId || t.t('sso.idp.notSet')}</code></dd></div>
        <div><dt>{t.t('sso.idp.ssoEndpoint')}</dt><dd><code className="gh-ap-mono">{config.ssoEndpoint || t.t('sso.idp.notSet')}</code></dd></div>
        <div>
          <dt>{t.t('sso.idp.certificate')}</dt>
          <dd>
            {cert.kind === 'none' ? t.t('sso.idp.notSet') : t.t('sso.idp.expires', { date: shortDate(t, cert.expiresAt.toISOString()) })}
            {cert.kind === 'expiring' && <> <span className="gh-ap-badge gh-ap-sso-warn">{t.t('sso.cert.expiringBadge')}</span></>}
            {cert.kind === 'expired' && <> <span className="gh-ap-badge gh-ap-sso-danger">{t.t('sso.cert.expiredBadge')}</span></>}
          </dd>
        </div>
      </dl>
      {canWrite && (
        <>
          <Tabs label={t.t('sso.idp.sourceLabel')} tabs={tabs} selected={source} onSelect={(s) => { setSource(s); setNotice(null); }} idPrefix={id} />
          <TabPanel idPrefix={id} id="file" selected={source === 'file'}>
            <div className="gh-ap-field">
              <label className="gh-ap-label" htmlFor={`${id}-file`}>{t.t('sso.idp.file')}</label>
              <input ref={fileInput} id={`${id}-file`} className="gh-ap-file" type="file" accept=".xml,application/xml,text/xml,application/samlmetadata+xml" disabled={busy}
                aria-describedby={`${id}-file-hint`} aria-invalid={action.errors.metadata ? true : undefined} onChange={(e) => void upload(e.target.files?.[0] ?? null)} />
              <p id={`${id}-file-hint`} className="gh-ap-hint">{t.t('sso.idp.fileHint')}</p>
              {action.errors.metadata && <p className="gh-ap-field-error" role="alert">{action.errors.metadata}</p>}
            </div>
          </TabPanel>
          <TabPanel idPrefix={id} id="url" selected={source === 'url'}>
            <form className="gh-ap-sec-form" noValidate onSubmit={(e) => void fromUrl(e)} aria-label={t.t('sso.idp.source.url')}>
              <TextField id={`${id}-url`} label={t.t('sso.idp.url')} value={url} busy={busy} problem={action.errors.url} code placeholder="https://idp.example.com/metadata.xml" hint={t.t('sso.idp.urlHint')}
                onChange={(value) => { setUrl(value); action.clearField('url'); }} />
              <div className="gh-ap-actions">
                <button type="submit" className="gh-ap-button" disabled={busy || !url.trim()} aria-busy={action.busy === 'url'}>
                  {action.busy === 'url' && <span className="gh-ap-spinner" aria-hidden="true" />}
                  {t.t('sso.idp.fetch')}
                </button>
              </div>
            </form>
          </TabPanel>
          <TabPanel idPrefix={id} id="manual" selected={source === 'manual'}>
            <form className="gh-ap-sec-form" noValidate onSubmit={(e) => void saveManual(e)} aria-label={t.t('sso.idp.source.manual')}>
              <TextField id={`${id}-domain`} label={t.t('sso.idp.domain')} value={manual.domain} busy={busy} problem={action.errors.domain} code placeholder="example.com"
                hint={t.t(domainChange ? 'sso.idp.domainChangeHint' : 'sso.idp.domainHint')} onChange={set('domain')} />
              <TextField id={`${id}-endpoint`} label={t.t('sso.idp.ssoEndpoint')} value={manual.ssoEndpoint} busy={busy || domainChange} problem={action.errors.ssoEndpoint} code placeholder="https://idp.example.com/sso/saml" onChange={set('ssoEndpoint')} />
              <div className="gh-ap-field">
                <label className="gh-ap-label" htmlFor={`${id}-cert`}>{t.t('sso.idp.certificate')}</label>
                <textarea id={`${id}-cert`} className="gh-ap-input gh-ap-mono gh-ap-sso-pem" rows={5} value={manual.publicCertificate} disabled={busy || domainChange} spellCheck={false}
                  placeholder="-----BEGIN CERTIFICATE-----" aria-invalid={action.errors.publicCertificate ? true : undefined} aria-describedby={`${id}-cert-hint${action.errors.publicCertificate ? ` ${id}-cert-error` : ''}`}
                  onChange={(e) => set('publicCertificate')(e.target.value)} />
                <p id={`${id}-cert-hint`} className="gh-ap-hint">{t.t(config.publicCertificate ? 'sso.idp.certificateKeepHint' : 'sso.idp.certificateHint')}</p>
                {action.errors.publicCertificate && <p id={`${id}-cert-error`} className="gh-ap-field-error" role="alert">{action.errors.publicCertificate}</p>}
              </div>
              <TextField id={`${id}-entity`} label={t.t('sso.idp.entityId')} value={manual.idpEntityId} busy={busy || domainChange} problem={action.errors.idpEntityId} code placeholder="http://www.okta.com/exk..." onChange={set('idpEntityId')} />
              <label className="gh-ap-check" htmlFor={`${id}-sign`}>
                <input id={`${id}-sign`} type="checkbox" checked={manual.signRequest} disabled={busy || domainChange} onChange={(e) => setManual((m) => ({ ...m, signRequest: e.target.checked }))} />
                <span>{t.t('sso.idp.signRequest')}<span className="gh-ap-hint"> {t.t('sso.idp.signRequestHint')}</span></span>
              </label>
              {action.errors.signRequest && <p className="gh-ap-field-error" role="alert">{action.errors.signRequest}</p>}
              <div className="gh-ap-actions">
                <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={action.busy === 'manual'}>
                  {action.busy === 'manual' && <span className="gh-ap-spinner" aria-hidden="true" />}
                  {t.t(domainChange ? 'sso.idp.saveDomain' : 'common.save')}
                </button>
              </div>
            </form>
          </TabPanel>
        </>
      )}
      {action.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{action.error}</p>}
      <Toast message={notice} />
    </section>
  );
}

const OIDC_FIELDS = ['oidc.issuer', 'oidc.clientId', 'oidc.clientSecret', 'oidc.scopes'] as const;

/** Step 2 for OIDC: the client registered at the IdP (issuer, client id, secret, scopes); the secret is never shown back. */
export function OidcIdpCard({ config, sso, canWrite, onSaved }: { config: SsoConfiguration; sso: SsoApi; canWrite: boolean; onSaved: (config: SsoConfiguration) => void }) {
  const t = useT();
  const id = `gh-sso-oidc-${useId().replace(/:/g, '')}`;
  const action = useSsoAction(OIDC_FIELDS, onSaved);
  const [notice, setNotice] = useState<string | null>(null);
  const [form, setForm] = useState({ issuer: config.oidc?.issuer ?? '', clientId: config.oidc?.clientId ?? '', clientSecret: '', scopes: config.oidc?.scopes ?? '' });
  const busy = action.busy !== null || !canWrite;
  const set = (field: keyof typeof form) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    action.clearField(`oidc.${field}` as (typeof OIDC_FIELDS)[number]);
  };
  async function save(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    if (await action.run('save', () => sso.updateOidc(config.id, form))) {
      setForm((f) => ({ ...f, clientSecret: '' }));
      setNotice(t.t('sso.idp.saved'));
    }
  }
  return (
    <section className="gh-ap-sec-card gh-ap-sso-card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="gh-ap-sec-card-title">{t.t('sso.oidc.title')}</h3>
      <form className="gh-ap-sec-form" noValidate onSubmit={(e) => void save(e)} aria-label={t.t('sso.oidc.title')}>
        <OidcFields id={id} form={form} set={set} busy={busy} errors={action.errors} secretHint={t.t(config.oidc?.hasClientSecret ? 'sso.oidc.secretKeepHint' : 'sso.oidc.secretHint')} />
        {canWrite && <SaveActions busy={busy} saving={action.busy === 'save'} />}
      </form>
      {action.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{action.error}</p>}
      <Toast message={notice} />
    </section>
  );
}

/** The OIDC client's fields, shared by the first setup and the card. */
export function OidcFields({ id, form, set, busy, errors, secretHint }: {
  id: string;
  form: { issuer: string; clientId: string; clientSecret: string; scopes: string };
  set: (field: 'issuer' | 'clientId' | 'clientSecret' | 'scopes') => (value: string) => void;
  busy: boolean;
  errors: Partial<Record<(typeof OIDC_FIELDS)[number], string>>;
  secretHint: string;
}) {
  const t = useT();
  return (
    <>
      <TextField id={`${id}-issuer`} label={t.t('sso.oidc.issuer')} value={form.issuer} busy={busy} problem={errors['oidc.issuer']} code placeholder="https://login.example.com" hint={t.t('sso.oidc.issuerHint')} onChange={set('issuer')} />
      <TextField id={`${id}-client`} label={t.t('sso.oidc.clientId')} value={form.clientId} busy={busy} problem={errors['oidc.clientId']} code onChange={set('clientId')} />
      <TextField id={`${id}-secret`} label={t.t('sso.oidc.clientSecret')} type="password" value={form.clientSecret} busy={busy} problem={errors['oidc.clientSecret']} code hint={secretHint} autoComplete="new-password" onChange={set('clientSecret')} />
      <TextField id={`${id}-scopes`} label={t.t('sso.oidc.scopes')} value={form.scopes} busy={busy} problem={errors['oidc.scopes']} code placeholder="openid email profile" onChange={set('scopes')} />
    </>
  );
}

export { OIDC_FIELDS };
