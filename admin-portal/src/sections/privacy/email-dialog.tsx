import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ChangeEmailResponse } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useRefocusOnError } from '../roles/refocus';
import { Modal } from '../users/modal';
import { useSecuritySave } from './use-security-save';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Change email (seed 000 section 7.3, `users/v1/email/me` then `email/me/verify`): the new address
 * gets a link and a 6-digit code; it replaces the old one only once proven (the code here, or the
 * link in any browser), and the old address is told. Until then nothing changes.
 */
export function EmailDialog({ currentEmail, request, verify, onDone, onFreshAuth, onClose }: {
  currentEmail: string | null;
  request: (email: string) => Promise<ChangeEmailResponse>;
  verify: (code: string) => Promise<{ email: string }>;
  onDone: (email: string) => void;
  onFreshAuth: (error: unknown) => boolean;
  onClose: () => void;
}) {
  const t = useT();
  const id = useId();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<ChangeEmailResponse | null>(null);
  const [problem, setProblem] = useState('');
  const { busy, error, setError, run } = useSecuritySave(onFreshAuth);
  const ref = useRef<HTMLFormElement>(null);
  useRefocusOnError(error, busy, ref);
  // The code field replaces the address field: focus moves to it.
  useEffect(() => {
    if (sent) ref.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [sent]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!sent) {
      const value = email.trim();
      const found = !EMAIL.test(value) ? t.t('privacy.email.invalid') : currentEmail && value.toLowerCase() === currentEmail.toLowerCase() ? t.t('privacy.email.same') : '';
      setProblem(found);
      if (found) return;
      await run(async () => {
        setSent(await request(value));
        setError(null);
      });
      return;
    }
    const value = code.replace(/\s/g, '');
    const found = /^\d{6}$/.test(value) ? '' : t.t('privacy.email.codeInvalid');
    setProblem(found);
    if (found) return;
    await run(async () => {
      const changed = await verify(value);
      onDone(changed.email);
    });
  }

  return (
    <Modal title={t.t('privacy.email.title')} onClose={onClose} busy={busy}>
      <form ref={ref} className="gh-ap-form" onSubmit={submit} noValidate>
        {!sent ? (
          <>
            {currentEmail && <p className="gh-ap-modal-text">{t.t('privacy.email.current', { email: currentEmail })}</p>}
            <TextField key="email" id={`${id}-email`} type="email" autoComplete="email" label={t.t('privacy.email.new')} hint={t.t('privacy.email.newHint')} value={email} busy={busy} problem={problem} autofocus onChange={setEmail} />
          </>
        ) : (
          <>
            <p className="gh-ap-modal-text" role="status">{t.t('privacy.email.sent', { email: sent.email, minutes: Math.max(1, Math.round(sent.expiresIn / 60)) })}</p>
            <TextField key="code" id={`${id}-code`} autoComplete="one-time-code" code label={t.t('privacy.email.code')} value={code} busy={busy} problem={problem} autofocus onChange={setCode} />
          </>
        )}
        <DialogFooter error={error} busy={busy} label={t.t(sent ? 'privacy.email.confirm' : 'privacy.email.send')} onClose={onClose} />
      </form>
    </Modal>
  );
}
