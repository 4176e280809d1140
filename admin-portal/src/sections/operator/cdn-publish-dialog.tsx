import { useId, useRef, useState, type FormEvent } from 'react';
import type { CdnPublishBody, CdnPublishResponse } from '@gatehouse/shared/wire';
import type { Translator } from '../../contract';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { Modal } from '../users/modal';
import { PickProblem, publishBody, readPickedFolder, type PickedVersion } from './cdn-upload';


/** The folder's size in kB, or MB from 1 MB on. */
const sizeText = (t: Translator, bytes: number) =>
  bytes < 1024 * 1024 ? t.formatNumber(bytes / 1024, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 1 }) : t.formatNumber(bytes / 1024 / 1024, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });

/**
 * "Publish a version" (issue 18): the operator picks a built version folder
 * (`dist/cdn/<bundle>/<version>`); the dialog shows which bundle and version it holds, and how many
 * files, before anything is sent; the files go to the server, which checks them as `cdn publish`
 * does. A refusal is shown on the folder field with the server's message; the dialog stays open.
 */
export function PublishDialog({ publish, onClose }: { publish: (body: CdnPublishBody) => Promise<CdnPublishResponse>; onClose: () => void }) {
  const t = useT();
  const toError = useErrorText();
  const id = useId().replace(/:/g, '');
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<PickedVersion | null>(null);
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function pick(files: FileList | null) {
    setPicked(null);
    setProblem(undefined);
    if (!files?.length) return;
    try {
      setPicked(await readPickedFolder(files));
    } catch (error) {
      setProblem(error instanceof PickProblem ? t.t(error.key, error.values) : toError(error));
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!picked) {
      setProblem(problem ?? t.t('operator.cdn.problem.folderEmpty'));
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      await publish(await publishBody(picked));
    } catch (error) {
      setProblem(toError(error));
      setBusy(false);
    }
  }

  const fieldId = `${id}-folder`;
  return (
    <Modal title={t.t('operator.cdn.publishTitle')} onClose={onClose} busy={busy}>
      <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate>
        <p className="gh-ap-modal-text">{t.t('operator.cdn.publishText')}</p>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={fieldId}>{t.t('operator.cdn.folder')}</label>
          <input
            ref={input}
            id={fieldId}
            className="gh-ap-file"
            type="file"
            // React does not know the attribute; the browsers that pick folders all read it.
            {...{ webkitdirectory: '', directory: '' }}
            multiple
            disabled={busy}
            data-autofocus
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${fieldId}-hint${problem ? ` ${fieldId}-error` : ''}`}
            onChange={(e) => void pick(e.target.files)}
          />
          <p id={`${fieldId}-hint`} className="gh-ap-hint">{t.t('operator.cdn.folderHint')}</p>
          {problem && <p id={`${fieldId}-error`} className="gh-ap-field-error" role="alert">{problem}</p>}
        </div>
        {picked && (
          <p className="gh-ap-banner gh-ap-op-picked" role="status">
            {t.t('operator.cdn.picked', { bundle: picked.bundle, version: picked.version, count: picked.files.length, size: sizeText(t, picked.bytes) })}
          </p>
        )}
        <DialogFooter error={null} busy={busy} disabled={!picked} label={busy ? t.t('operator.cdn.publishing') : t.t('operator.cdn.publishConfirm')} onClose={onClose} />
      </form>
    </Modal>
  );
}
