import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AccountSettingsView } from '@gatehouse/shared/admin-paths';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import type { AccountSettingsUpdate } from './account-api';
import { changedFields, draftFrom, fieldErrorsFrom, validateDraft, type AccountDraft, type AccountErrors, type AccountField } from './account-form';

/** Seed 001 section 5: a save with nothing changed says so ('No changes to update') and calls nothing. */
export const NO_CHANGES = 'account.noChanges';

export interface AccountFormOptions {
  settings: AccountSettingsView;
  /** The fields this form may send (the tab's fields the caller may edit). */
  editable: readonly AccountField[];
  /** Extra body parts beyond the text fields (the logo), or undefined. */
  extra?: () => AccountSettingsUpdate | undefined;
  save: (body: AccountSettingsUpdate) => Promise<void>;
  savedMessage: string;
  /** Where focus goes after a failed save: the id of the first field in error. */
  fieldId: (field: AccountField | 'logo') => string;
  root: () => ParentNode | null;
}

/** Draft, errors and save of one tab's form; the draft survives a refresh of the stored settings. */
export function useAccountForm({ settings, editable, extra, save, savedMessage, fieldId, root }: AccountFormOptions) {
  const t = useT();
  const toError = useErrorText();
  const [draft, setDraft] = useState<AccountDraft>(() => draftFrom(settings));
  const [errors, setErrors] = useState<AccountErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [saving, setSaving] = useState(false);
  const [focusFirstError, setFocusFirstError] = useState(0);

  // Fields whose stored value changed (this save, or the other tab's) take the new value; other edits stay.
  const baseline = useRef(draftFrom(settings));
  useEffect(() => {
    const previous = baseline.current;
    const next = draftFrom(settings);
    baseline.current = next;
    const moved = (Object.keys(next) as AccountField[]).filter((field) => next[field] !== previous[field]);
    if (moved.length > 0) setDraft((current) => ({ ...current, ...Object.fromEntries(moved.map((field) => [field, next[field]])) }));
  }, [settings]);

  useEffect(() => {
    if (focusFirstError === 0) return;
    const first = (Object.keys(errors) as (AccountField | 'logo')[])[0];
    const node = first ? root()?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(first))}`) : null;
    node?.focus();
  }, [focusFirstError]);

  function edit<K extends AccountField>(field: K, value: AccountDraft[K]) {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setStatus('');
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    setBanner(null);
    const body: AccountSettingsUpdate = { ...changedFields(settings, draft, editable), ...extra?.() };
    const invalid = Object.fromEntries(Object.entries(validateDraft(body)).map(([field, key]) => [field, t.t(key)])) as AccountErrors;
    setErrors(invalid);
    if (Object.keys(invalid).length > 0) {
      setStatus('');
      setFocusFirstError((n) => n + 1);
      return;
    }
    if (Object.keys(body).length === 0) {
      setStatus(t.t(NO_CHANGES));
      return;
    }
    setSaving(true);
    setStatus('');
    try {
      await save(body);
      setStatus(savedMessage);
    } catch (thrown) {
      // The server names the field it refuses ("website: ..."); the messages arrive joined by ", ".
      const message = toError(thrown);
      const parts = message.split(/, (?=\w+: )/);
      const split = fieldErrorsFrom(parts, [...editable, ...(body.logo !== undefined ? ['logo'] : [])]);
      setErrors(split.fields);
      setBanner(split.other.length > 0 ? split.other.join(', ') : Object.keys(split.fields).length > 0 ? null : message);
      setFocusFirstError((n) => n + 1);
    } finally {
      setSaving(false);
    }
  }

  return { draft, edit, errors, setErrors, banner, status, setStatus, saving, submit };
}
