import { useId, useState, type FormEvent } from 'react';
import type { Application } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { CopyField } from '../api-tokens/token-created-dialog';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { ListInput } from './rule-editor';

const CLIENT_ID = /^[A-Za-z0-9._-]{3,100}$/;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The server's rule for a redirect address: https (http only on a loopback host, for development), without a fragment or credentials. */
export function isRedirectUri(value: string): boolean {
  try {
    const url = new URL(value);
    const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
    return scheme && !value.includes('#') && !url.username && !url.password && value.length <= 2000;
  } catch {
    return false;
  }
}

/**
 * Add an OAuth application (client id, name, redirect addresses, public or confidential) or edit
 * one's name and addresses. The server answers a new confidential client's secret once; the section
 * shows it in ApplicationSecretDialog.
 */
export function ApplicationDialog({ application, save, onClose }: { application: Application | null; save: (body: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const id = useId().replace(/:/g, '');
  const saving = useSave();
  const [clientId, setClientId] = useState(application?.clientId ?? '');
  const [name, setName] = useState(application?.name ?? '');
  const [redirectUris, setRedirectUris] = useState<string[]>(application?.redirectUris ?? []);
  const [logoutUris, setLogoutUris] = useState<string[]>(application?.postLogoutRedirectUris ?? []);
  const [confidential, setConfidential] = useState(application?.confidential ?? true);
  const [problems, setProblems] = useState<{ clientId?: string; name?: string; redirectUris?: string; logoutUris?: string }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    if (!application && !CLIENT_ID.test(clientId)) found.clientId = t.t('operator.applications.problem.clientId');
    if (name.length > 120) found.name = t.t('operator.problem.name');
    if (redirectUris.length === 0) found.redirectUris = t.t('operator.applications.problem.noRedirect');
    else if (redirectUris.some((uri) => !isRedirectUri(uri))) found.redirectUris = t.t('operator.applications.problem.uri', { uri: redirectUris.find((uri) => !isRedirectUri(uri))! });
    if (logoutUris.some((uri) => !isRedirectUri(uri))) found.logoutUris = t.t('operator.applications.problem.uri', { uri: logoutUris.find((uri) => !isRedirectUri(uri))! });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const common = { ...(name.trim() ? { name: name.trim() } : {}), redirectUris, postLogoutRedirectUris: logoutUris };
    await saving.run(() => save(application ? common : { clientId, ...common, confidential }));
  }

  return (
    <Modal title={application ? t.t('operator.applications.editTitle', { name: application.name || application.clientId }) : t.t('operator.applications.add')} onClose={onClose} busy={saving.busy}>
      <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate>
        {!application && (
          <TextField id={`${id}-client`} label={t.t('operator.applications.clientId')} value={clientId} busy={saving.busy} problem={problems.clientId} code autofocus hint={t.t('operator.applications.clientIdHint')} onChange={setClientId} />
        )}
        <TextField id={`${id}-name`} label={t.t('operator.field.name')} value={name} busy={saving.busy} problem={problems.name} autofocus={Boolean(application)} onChange={setName} />
        <ListInput id={`${id}-redirects`} label={t.t('operator.applications.redirectUris')} hint={t.t('operator.applications.redirectUrisHint')} values={redirectUris} onChange={setRedirectUris} problem={problems.redirectUris} />
        <ListInput id={`${id}-logout`} label={t.t('operator.applications.logoutUris')} hint={t.t('operator.applications.logoutUrisHint')} values={logoutUris} onChange={setLogoutUris} problem={problems.logoutUris} />
        {!application && (
          <label className="gh-ap-check" htmlFor={`${id}-confidential`}>
            <input id={`${id}-confidential`} type="checkbox" checked={confidential} disabled={saving.busy} onChange={(e) => setConfidential(e.target.checked)} />
            <span>{t.t('operator.applications.confidential')}<span className="gh-ap-hint"> {t.t('operator.applications.confidentialHint')}</span></span>
          </label>
        )}
        <DialogFooter error={saving.error} busy={saving.busy} label={application ? t.t('operator.applications.save') : t.t('operator.applications.add')} onClose={onClose} />
      </form>
    </Modal>
  );
}

/** A client secret, shown once right after it was made; dropped from the page when closed. */
export function ApplicationSecretDialog({ clientId, secret, onClose }: { clientId: string; secret: string; onClose: () => void }) {
  const t = useT();
  return (
    <Modal title={t.t('operator.applications.secretTitle', { clientId })} onClose={onClose}>
      <p className="gh-ap-banner gh-ap-banner-warning" role="note">
        <strong>{t.t('operator.applications.copyNow')}</strong> {t.t('operator.applications.onlyOnce')}
      </p>
      <CopyField label={t.t('operator.applications.clientId')} copyLabel={t.t('operator.applications.copyClientId')} value={clientId} />
      <CopyField label={t.t('operator.applications.secret')} copyLabel={t.t('operator.applications.copySecret')} value={secret} autofocus />
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button" onClick={onClose}>{t.t('common.done')}</button>
      </div>
    </Modal>
  );
}
