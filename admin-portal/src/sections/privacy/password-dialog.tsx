import { lazy, Suspense, useId, useRef, useState, type FormEvent } from 'react';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useRefocusOnError } from '../roles/refocus';
import { Modal } from '../users/modal';
import { useSecuritySave } from './use-security-save';

// zxcvbn and its word lists: only when this dialog opens.
const StrengthMeter = lazy(() => import('./strength-meter'));

/**
 * Change password: the current one (the server checks it), the new one twice. With a second factor
 * enrolled the server also asks for a recent step-up; `run` hands that answer to the part, which
 * offers it instead of this dialog.
 */
export function PasswordDialog({ change, onDone, onFreshAuth, onClose, userInputs = [] }: {
  change: (password: string, newPassword: string) => Promise<unknown>;
  /** The user's email (and its name part): a password made of them rates weak. */
  userInputs?: readonly string[];
  onDone: () => void;
  onFreshAuth: (error: unknown) => boolean;
  onClose: () => void;
}) {
  const t = useT();
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [problems, setProblems] = useState<{ current?: string; next?: string; again?: string }>({});
  const { busy, error, run } = useSecuritySave(onFreshAuth);
  const ref = useRef<HTMLFormElement>(null);
  useRefocusOnError(error, busy, ref);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    if (!current) found.current = t.t('privacy.password.currentMissing');
    if (!next) found.next = t.t('privacy.password.newMissing');
    else if (next === current) found.next = t.t('privacy.password.same');
    if (next && again !== next) found.again = t.t('privacy.password.mismatch');
    setProblems(found);
    if (found.current || found.next || found.again) return;
    await run(async () => {
      await change(current, next);
      onDone();
    });
  }

  return (
    <Modal title={t.t('privacy.password.title')} onClose={onClose} busy={busy}>
      <form ref={ref} className="gh-ap-form" onSubmit={submit} noValidate>
        <TextField id={`${id}-current`} type="password" autoComplete="current-password" label={t.t('privacy.password.current')} value={current} busy={busy} problem={problems.current ?? ''} autofocus onChange={setCurrent} />
        <TextField id={`${id}-new`} type="password" autoComplete="new-password" label={t.t('privacy.password.new')} hint={t.t('privacy.password.newHint')} value={next} busy={busy} problem={problems.next ?? ''} onChange={setNext} />
        <Suspense fallback={null}>
          <StrengthMeter password={next} userInputs={userInputs} />
        </Suspense>
        <TextField id={`${id}-again`} type="password" autoComplete="new-password" label={t.t('privacy.password.again')} value={again} busy={busy} problem={problems.again ?? ''} onChange={setAgain} />
        <DialogFooter error={error} busy={busy} label={t.t('privacy.password.save')} onClose={onClose} />
      </form>
    </Modal>
  );
}
