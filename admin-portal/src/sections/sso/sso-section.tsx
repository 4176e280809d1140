import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Role, SsoConfiguration } from '@gatehouse/shared/wire';
import { holdsPermission } from '../../access';
import { Permissions } from '../../contract';
import { shortDate } from '../../format';
import { adoptCss } from '../../host-styles';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import type { SectionProps } from '../section-props';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import secCss from '../security/security.css?inline';
import usersCss from '../users/users.css?inline';
import tokenCss from '../api-tokens/api-tokens.css?inline';
import ownCss from './sso.css?inline';
import { certificateState } from './certificate';
import { DomainsCard } from './domains-card';
import { GuideCard } from './guide-card';
import { OidcIdpCard, SamlIdpCard } from './idp-card';
import { guessProvider, type ProviderId } from './providers';
import { RolesCard } from './roles-card';
import { createSsoApi } from './sso-api';
import { StartSetup } from './start-setup';
import { TestCard } from './test-card';
import { useSsoAction } from './use-sso-action';

/** Whether people could sign in through it: the IdP known and at least one validated domain. */
export function isComplete(config: SsoConfiguration): boolean {
  const idp = config.type === 'saml' ? Boolean(config.ssoEndpoint && config.publicCertificate) : Boolean(config.oidc?.issuer && config.oidc.clientId && config.oidc.hasClientSecret);
  return idp && config.domains.some((d) => d.validated);
}

/**
 * The SSO section (issue 15; seed 001 sections 2, 3, 5, 7): a guided setup of the account's identity
 * provider (Okta, Entra ID, Google Workspace, OneLogin, JumpCloud, ADFS, any SAML or OIDC IdP): the
 * values to paste there, the IdP's metadata (file, URL or typed in), the email domains proven by
 * DNS, default and group roles, turning it on and off, and a warning 30 days before the IdP's
 * certificate expires. Readers (fe.secure.read.samlConfiguration) see it all; changes need
 * fe.secure.write.samlConfiguration.
 */
export function SsoSection({ title, headingId, user, api, oidcRedirectUrl }: SectionProps) {
  const t = useT();
  const toError = useErrorText();
  const sso = useMemo(() => createSsoApi(api), [api]);
  const canWrite = Boolean(user.superUser) || holdsPermission(user, Permissions.samlWrite);
  const rolesSource = user.superUser || holdsPermission(user, Permissions.rolesRead) ? 'roles' : holdsPermission(user, Permissions.usersRead) ? 'team' : null;
  const sectionRef = useRef<HTMLElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);
  const { data, loading, error, reload, replace } = useLatestLoad(sso.list, toError);
  const [provider, setProvider] = useState<ProviderId | null>(null);
  const [roles, setRoles] = useState<Role[] | 'loading' | null>(rolesSource ? 'loading' : null);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const config = data?.[0] ?? null;

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, [usersCss, secCss, tokenCss, ownCss].join('\n')) : undefined), []);
  useInertWhile(behindRef, deleting);
  useEffect(() => {
    if (!rolesSource) return;
    let live = true;
    sso.roles(rolesSource).then((found) => live && setRoles(found), () => live && setRoles(null));
    return () => {
      live = false;
    };
  }, [sso, rolesSource]);

  const saved = useCallback((next: SsoConfiguration) => replace([next, ...(data ?? []).filter((c) => c.id !== next.id)]), [replace, data]);
  const toggle = useSsoAction([], saved);
  const shownProvider = provider ?? (config ? guessProvider(config) : 'saml');
  const cert = certificateState(config?.publicCertificateExpiresAt, Date.now());
  const complete = config ? isComplete(config) : false;

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide gh-ap-sec gh-ap-sso" aria-labelledby={headingId} aria-busy={loading}>
      <div ref={behindRef}>
        <div className="gh-ap-sec-header">
          <h2 id={headingId} className="gh-ap-section-title" tabIndex={-1}>{title}</h2>
          {config && (
            <div className="gh-ap-sso-status">
              <span className={`gh-ap-badge ${config.enabled ? 'gh-ap-sso-ok' : ''}`}>{t.t(config.enabled ? 'sso.status.enabled' : 'sso.status.disabled')}</span>
              {canWrite && (
                <button type="button" className={config.enabled ? 'gh-ap-button-secondary' : 'gh-ap-button'} disabled={toggle.busy !== null || (!config.enabled && !complete)} aria-busy={toggle.busy !== null}
                  aria-describedby={!config.enabled && !complete ? 'gh-sso-incomplete' : undefined}
                  onClick={() => {
                    setNotice(null);
                    void toggle.run('toggle', () => sso.setEnabled(config.id, !config.enabled)).then((ok) => ok && setNotice(t.t(config.enabled ? 'sso.status.disabledNotice' : 'sso.status.enabledNotice')));
                  }}>
                  {toggle.busy !== null && <span className="gh-ap-spinner" aria-hidden="true" />}
                  {t.t(config.enabled ? 'sso.status.disable' : 'sso.status.enable')}
                </button>
              )}
            </div>
          )}
        </div>
        <p className="gh-ap-hint">{t.t('sso.intro')}</p>
        {!canWrite && <p className="gh-ap-hint gh-ap-sso-readonly">{t.t('sso.readOnly')}</p>}
        <Toast message={notice} />
        {toggle.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{toggle.error}</p>}
        {error && (
          <div className="gh-ap-banner gh-ap-banner-error" role="alert">
            <span>{error}</span>{' '}
            <button type="button" className="gh-ap-link" onClick={() => void reload()}>{t.t('common.tryAgain')}</button>
          </div>
        )}
        {loading && !data && (
          <div className="gh-ap-sec-card-skeleton">
            <p className="gh-ap-visually-hidden">{t.t('sso.loading')}</p>
            <div className="gh-ap-skeleton-bar" aria-hidden="true" />
            <div className="gh-ap-skeleton-bar gh-ap-skeleton-short" aria-hidden="true" />
            <div className="gh-ap-skeleton-bar" aria-hidden="true" />
          </div>
        )}
        {data && !config && (canWrite ? <StartSetup sso={sso} onCreated={(created, chosen) => { setProvider(chosen); saved(created); }} /> : <p className="gh-ap-sso-empty">{t.t('sso.none')}</p>)}
        {config && (
          <>
            {cert.kind === 'expiring' && <p className="gh-ap-banner gh-ap-sso-banner-warn" role="status">{t.t('sso.cert.expiring', { days: cert.days, date: shortDate(t, cert.expiresAt.toISOString()) })}</p>}
            {cert.kind === 'expired' && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{t.t('sso.cert.expired', { date: shortDate(t, cert.expiresAt.toISOString()) })}</p>}
            {!config.enabled && !complete && <p id="gh-sso-incomplete" className="gh-ap-hint">{t.t('sso.status.incomplete')}</p>}
            <div className="gh-ap-sso-cards">
              <GuideCard config={config} provider={shownProvider} onProvider={setProvider} origin={typeof window === 'undefined' ? '' : window.location.origin} />
              {config.type === 'saml' ? (
                <SamlIdpCard key={config.id} config={config} sso={sso} canWrite={canWrite} now={Date.now()} onSaved={saved} />
              ) : (
                <OidcIdpCard key={config.id} config={config} sso={sso} canWrite={canWrite} onSaved={saved} />
              )}
              <DomainsCard config={config} sso={sso} canWrite={canWrite} onSaved={saved} />
              <RolesCard key={config.id} config={config} sso={sso} canWrite={canWrite} roles={roles} onSaved={saved} />
              {canWrite && <TestCard key={`test-${config.id}`} config={config} sso={sso} roles={roles} oidcRedirectUrl={oidcRedirectUrl} />}
            </div>
            {canWrite && (
              <div className="gh-ap-sso-danger-zone">
                <button type="button" className="gh-ap-link gh-ap-link-danger" onClick={() => { setNotice(null); setDeleting(true); }}>{t.t('sso.delete.action')}</button>
              </div>
            )}
          </>
        )}
      </div>
      {deleting && config && (
        <DeleteDialog
          title={t.t('sso.delete.title')}
          text={t.t('sso.delete.text')}
          onClose={() => setDeleting(false)}
          run={async () => {
            await sso.remove(config.id);
            setDeleting(false);
            setProvider(null);
            replace((data ?? []).filter((c) => c.id !== config.id));
            setNotice(t.t('sso.delete.done'));
          }}
        />
      )}
    </section>
  );
}
