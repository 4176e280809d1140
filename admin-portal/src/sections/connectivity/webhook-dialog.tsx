import { useId, useState, type FormEvent } from 'react';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import type { EventCatalogueEntry, WebhookEndpoint, WebhookInput } from './connectivity-types';
import { EventPicker } from './event-picker';

/** The server's limits (shared/src/wire/connectivity/webhooks.ts). */
const MAX_URL = 2048;
const MAX_DESCRIPTION = 500;

const URL_PROBLEMS = { missing: 'connectivity.webhooks.dialog.urlMissing', invalid: 'connectivity.webhooks.dialog.urlInvalid', tooLong: 'connectivity.webhooks.dialog.urlTooLong' } as const;

/** An absolute http(s) URL; the server decides the rest (https outside dev mode, no private address). */
function urlProblem(value: string): 'missing' | 'invalid' | 'tooLong' | null {
  if (!value) return 'missing';
  if (value.length > MAX_URL) return 'tooLong';
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'invalid';
  } catch {
    return 'invalid';
  }
}

/**
 * Adds an endpoint, or edits one (`endpoint` given): URL, description, the events it receives (the
 * catalogue, grouped, with a filter) and whether it is active. Each field says what is wrong with
 * it before anything is sent; the server's refusal (e.g. an address it will not call) shows below.
 */
export function WebhookDialog({ endpoint, catalogue, save, onClose }: {
  endpoint: WebhookEndpoint | null;
  catalogue: readonly EventCatalogueEntry[];
  save: (input: WebhookInput) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const id = useId();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [eventKeys, setEventKeys] = useState<string[]>(endpoint?.eventKeys ?? []);
  const [isActive, setIsActive] = useState(endpoint?.isActive ?? true);
  const [problems, setProblems] = useState<{ url?: string; description?: string; eventKeys?: string }>({});
  const saving = useSave();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    const trimmed = url.trim();
    const urlIssue = urlProblem(trimmed);
    if (urlIssue) found.url = t.t(URL_PROBLEMS[urlIssue], { max: MAX_URL });
    if (description.trim().length > MAX_DESCRIPTION) found.description = t.t('connectivity.webhooks.dialog.descriptionTooLong', { max: MAX_DESCRIPTION });
    if (eventKeys.length === 0) found.eventKeys = t.t('connectivity.webhooks.dialog.eventsMissing');
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    void saving.run(() => save({ url: trimmed, description: description.trim(), eventKeys, isActive }));
  }

  return (
    <Modal title={t.t(endpoint ? 'connectivity.webhooks.dialog.editTitle' : 'connectivity.webhooks.dialog.addTitle')} onClose={onClose} busy={saving.busy}>
      <form className="gh-ap-cx-form" onSubmit={submit} noValidate>
        <TextField
          id={`${id}-url`}
          label={t.t('connectivity.webhooks.dialog.url')}
          value={url}
          onChange={(value) => {
            setUrl(value);
            setProblems((p) => ({ ...p, url: undefined }));
          }}
          busy={saving.busy}
          problem={problems.url}
          placeholder="https://hooks.example.com/gatehouse"
          hint={t.t('connectivity.webhooks.dialog.urlHint')}
          code
          autofocus
        />
        <TextField
          id={`${id}-description`}
          label={t.t('connectivity.webhooks.dialog.description')}
          value={description}
          onChange={(value) => {
            setDescription(value);
            setProblems((p) => ({ ...p, description: undefined }));
          }}
          busy={saving.busy}
          problem={problems.description}
        />
        <EventPicker
          catalogue={catalogue}
          selected={eventKeys}
          onChange={(keys) => {
            setEventKeys(keys);
            setProblems((p) => ({ ...p, eventKeys: undefined }));
          }}
          disabled={saving.busy}
          problem={problems.eventKeys}
        />
        <label className="gh-ap-check">
          <input type="checkbox" role="switch" checked={isActive} disabled={saving.busy} onChange={(e) => setIsActive(e.target.checked)} />
          <span>{t.t('connectivity.webhooks.dialog.active')}</span>
        </label>
        <DialogFooter error={saving.error} busy={saving.busy} label={t.t(endpoint ? 'common.save' : 'connectivity.webhooks.dialog.create')} onClose={onClose} />
      </form>
    </Modal>
  );
}
