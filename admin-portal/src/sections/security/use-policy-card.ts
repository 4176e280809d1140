import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { SecurityErrorCodes } from '@gatehouse/shared/admin-paths';
import type { PolicyEffect } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { durationFromSeconds } from './duration';
import { bodyFrom, draftFrom, fieldErrorsFrom, fieldsOf, sameBody, type Draft, type DraftValue, type FieldErrors, type PolicySpec } from './policy-form';
import { createPolicyApi, type StoredPolicy } from './security-api';

/** A save waiting for the admin's confirmation: the body and what the dry run said it would do. */
export interface PendingSave {
  body: Record<string, unknown>;
  effects: PolicyEffect[];
}

export interface PolicyCardOptions {
  spec: PolicySpec;
  api: GatehouseApi;
  /** Reports each save: false on failure (seed 001 section 4). */
  onResult?: (ok: boolean) => void;
  /** The id of a field's control, for focus after a refused save. */
  controlId: (path: string) => string;
  root: () => ParentNode | null;
}

/**
 * Load, draft, dry run and save of one policy card. Save first asks the server what the policy would
 * do (`?dryRun=true`); effects wait for Confirm, none saves at once. Edits survive a failed save.
 */
export function usePolicyCard({ spec, api, onResult, controlId, root }: PolicyCardOptions) {
  const t = useT();
  const toError = useErrorText();
  const calls = useMemo(() => createPolicyApi(api, spec.path), [api, spec.path]);
  const { data: policy, replace, loading, error: loadError, reload } = useLatestLoad<StoredPolicy>(calls.get, toError);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [saving, setSaving] = useState(false);
  const [pending, setPending] = useState<PendingSave | null>(null);
  const [focusRequest, setFocusRequest] = useState<{ n: number; to: 'error' | 'confirm' | 'save' }>({ n: 0, to: 'error' });
  const reported = useRef(onResult);
  reported.current = onResult;

  // A freshly loaded or saved policy is the new starting point of the form.
  useEffect(() => {
    if (policy) setDraft(draftFrom(spec, policy));
  }, [policy, spec]);

  useEffect(() => {
    if (focusRequest.n === 0) return;
    const node = root();
    if (!node) return;
    if (focusRequest.to === 'error') {
      const first = Object.keys(errors)[0];
      const target = first ? node.querySelector<HTMLElement>(`#${CSS.escape(controlId(first))}`) : node.querySelector<HTMLElement>('[role="alert"]');
      target?.focus();
    } else {
      node.querySelector<HTMLElement>(focusRequest.to === 'confirm' ? '[data-action="confirm"]' : 'button[type="submit"]')?.focus();
    }
  }, [focusRequest]);

  const focus = (to: 'error' | 'confirm' | 'save') => setFocusRequest((current) => ({ n: current.n + 1, to }));

  const edit = useCallback((path: string, value: DraftValue) => {
    setDraft((current) => (current ? { ...current, [path]: value } : current));
    setErrors((current) => {
      if (!(path in current)) return current;
      const { [path]: _dropped, ...rest } = current;
      return rest;
    });
    setPending(null);
    setStatus('');
  }, []);

  const method = (): 'POST' | 'PATCH' => (spec.method === 'saveById' && policy?.id ? 'PATCH' : 'POST');

  function refused(thrown: unknown) {
    const split = fieldErrorsFrom(spec, thrown, toError(thrown));
    // A duration looser than the vendor's: the vendor's limit in the units of the field, not the API's seconds.
    const { errorCode, errorContext } = (thrown ?? {}) as { errorCode?: unknown; errorContext?: { vendorValue?: unknown } };
    const vendorValue = errorContext?.vendorValue;
    if (errorCode === SecurityErrorCodes.policyLooserThanVendor && typeof vendorValue === 'number') {
      for (const field of fieldsOf(spec)) {
        if (field.kind !== 'duration' || !split.fields[field.path]) continue;
        const limit = durationFromSeconds(vendorValue, field.units);
        split.fields[field.path] = t.t('security.error.vendorDurationMax', { amount: Number(limit.amount), unit: limit.unit });
      }
    }
    setErrors(split.fields);
    setBanner(split.other ?? (Object.keys(split.fields).length > 0 ? null : toError(thrown)));
    reported.current?.(false);
    focus('error');
  }

  async function commit(body: Record<string, unknown>, noEffects: boolean) {
    setSaving(true);
    try {
      const answer = await calls.save(method(), body);
      // The server answers the saved policy; keep what was sent for any field it leaves out.
      replace({ ...policy, ...body, ...(answer && typeof answer === 'object' ? answer : {}) });
      setPending(null);
      setStatus(noEffects ? t.t('security.savedNoEffects', { saved: t.t(spec.savedMessage) }) : t.t(spec.savedMessage));
      reported.current?.(true);
      focus('save');
    } catch (thrown) {
      setPending(null);
      refused(thrown);
    } finally {
      setSaving(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving || !draft || !policy) return;
    setBanner(null);
    setStatus('');
    setPending(null);
    const { body, problems } = bodyFrom(spec, draft);
    const invalid = Object.fromEntries(Object.entries(problems).map(([path, problem]) => [path, t.t(problem.key, problem.args)]));
    setErrors(invalid);
    if (Object.keys(invalid).length > 0) {
      focus('error');
      return;
    }
    if (sameBody(body, bodyFrom(spec, draftFrom(spec, policy)).body)) {
      setStatus(t.t('security.noChanges'));
      return;
    }
    setSaving(true);
    let effects: PolicyEffect[];
    try {
      effects = (await calls.dryRun(method(), body)).effects ?? [];
    } catch (thrown) {
      setSaving(false);
      refused(thrown);
      return;
    }
    if (effects.length === 0) return commit(body, true);
    setSaving(false);
    setPending({ body, effects });
    focus('confirm');
  }

  function confirm() {
    if (pending && !saving) void commit(pending.body, false);
  }

  function cancel() {
    setPending(null);
    focus('save');
  }

  return { policy, draft, loading, loadError, reload, edit, errors, banner, status, saving, pending, submit, confirm, cancel };
}
