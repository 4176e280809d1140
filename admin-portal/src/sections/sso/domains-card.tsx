import { useId, useState, type FormEvent } from 'react';
import type { SsoConfiguration } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { CopyField } from '../api-tokens/token-created-dialog';
import { TextField } from '../dialogs/text-field';
import type { SsoApi } from './sso-api';
import { useSsoAction } from './use-sso-action';

const FIELDS = ['domain'] as const;

/**
 * Step 3: the email domains whose people sign in through this IdP. Each is pending until the TXT
 * record shown beside it is published in its DNS and validated; then it counts.
 */
export function DomainsCard({ config, sso, canWrite, onSaved }: { config: SsoConfiguration; sso: SsoApi; canWrite: boolean; onSaved: (config: SsoConfiguration) => void }) {
  const t = useT();
  const id = `gh-sso-domains-${useId().replace(/:/g, '')}`;
  const action = useSsoAction(FIELDS, onSaved);
  const [domain, setDomain] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const busy = action.busy !== null;

  async function add(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const name = domain.trim().toLowerCase();
    if (await action.run('add', () => sso.addDomain(config.id, name))) {
      setDomain('');
      setNotice(t.t('sso.domains.added', { domain: name }));
    }
  }

  return (
    <section className="gh-ap-sec-card gh-ap-sso-card" aria-labelledby={`${id}-title`} aria-busy={busy}>
      <h3 id={`${id}-title`} className="gh-ap-sec-card-title">{t.t('sso.domains.title')}</h3>
      <p className="gh-ap-hint">{t.t('sso.domains.intro')}</p>
      {canWrite && (
        <form className="gh-ap-sso-inline" noValidate onSubmit={(e) => void add(e)} aria-label={t.t('sso.domains.add')}>
          <TextField id={`${id}-domain`} label={t.t('sso.domains.domain')} value={domain} busy={busy} problem={action.errors.domain} code placeholder="example.com"
            onChange={(value) => { setDomain(value); action.clearField('domain'); }} />
          <button type="submit" className="gh-ap-button" disabled={busy || !domain.trim()} aria-busy={action.busy === 'add'}>
            {action.busy === 'add' && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('sso.domains.add')}
          </button>
        </form>
      )}
      {config.domains.length === 0 ? (
        <p className="gh-ap-sso-empty">{t.t('sso.domains.empty')}</p>
      ) : (
        <ul className="gh-ap-sso-domains" aria-label={t.t('sso.domains.title')}>
          {config.domains.map((entry) => (
            <li key={entry.id} className="gh-ap-sso-domain" aria-label={entry.domain}>
              <div className="gh-ap-sso-domain-head">
                <code className="gh-ap-mono">{entry.domain}</code>
                <span className={`gh-ap-badge ${entry.validated ? 'gh-ap-sso-ok' : 'gh-ap-sso-warn'}`}>{t.t(entry.validated ? 'sso.domains.validated' : 'sso.domains.pending')}</span>
                {canWrite && (
                  <span className="gh-ap-sso-domain-actions">
                    {!entry.validated && (
                      <button type="button" className="gh-ap-button-secondary" disabled={busy} aria-busy={action.busy === `validate-${entry.id}`}
                        onClick={() => {
                          setNotice(null);
                          void action.run(`validate-${entry.id}`, () => sso.validateDomain(config, entry.id)).then((ok) => ok && setNotice(t.t('sso.domains.validatedNotice', { domain: entry.domain })));
                        }}>
                        {action.busy === `validate-${entry.id}` && <span className="gh-ap-spinner" aria-hidden="true" />}
                        {t.t('sso.domains.validate')}
                      </button>
                    )}
                    <button type="button" className="gh-ap-link gh-ap-link-danger" disabled={busy} aria-label={t.t('sso.domains.remove', { domain: entry.domain })}
                      onClick={() => {
                        setNotice(null);
                        void action.run(`remove-${entry.id}`, () => sso.removeDomain(config.id, entry.id)).then((ok) => ok && setNotice(t.t('sso.domains.removed', { domain: entry.domain })));
                      }}>
                      {t.t('common.delete')}
                    </button>
                  </span>
                )}
              </div>
              {!entry.validated && (
                <div className="gh-ap-sso-txt">
                  <p className="gh-ap-hint">{t.t('sso.domains.txtHint', { domain: entry.domain })}</p>
                  <CopyField label={t.t('sso.domains.txtValue')} copyLabel={t.t('sso.domains.copyTxt', { domain: entry.domain })} value={entry.generatedVerification} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {action.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{action.error}</p>}
      <Toast message={notice} />
    </section>
  );
}
