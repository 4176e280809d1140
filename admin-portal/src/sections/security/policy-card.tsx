import { useEffect, useId, useRef } from 'react';
import type { GatehouseApi } from '../../contract';
import { useT } from '../../i18n/i18n-context';
import type { FieldVisibility } from '../../options';
import { Toast } from '../../toast';
import type { FieldGroup, FieldSpec, PolicySpec } from './policy-form';
import { PolicyField } from './policy-fields';
import { usePolicyCard } from './use-policy-card';

export interface PolicyCardProps {
  spec: PolicySpec;
  api: GatehouseApi;
  /** How a field of a group is offered, permissions and the host's fieldVisibility applied. */
  mode: (field: FieldSpec, group: FieldGroup) => FieldVisibility;
  /** Whether anything on the card may be saved. */
  canSave: boolean;
  onResult?: (ok: boolean) => void;
  /** A setting (a group's or field's name) to move focus to once the card has loaded. */
  focusSetting?: { name: string; request: number } | undefined;
}

/**
 * One policy as a card: its fields (grouped in fieldsets), a Save that previews the dry run's effects
 * for confirmation, the saving state on the button, a toast when saved, errors under their fields.
 */
export function PolicyCard({ spec, api, mode, canSave, onResult, focusSetting }: PolicyCardProps) {
  const t = useT();
  const rootRef = useRef<HTMLElement>(null);
  const idPrefix = `gh-sec-${spec.name}-${useId().replace(/:/g, '')}`;
  const controlId = (path: string) => `${idPrefix}-${path.replace(/\./g, '-')}`;
  const card = usePolicyCard({ spec, api, onResult, controlId, root: () => rootRef.current });
  const { draft, errors, pending } = card;
  const titleId = `${idPrefix}-title`;

  // A target (e.g. a security-center action) names a setting: its first shown control takes focus,
  // once per request (not on every render of the tab, which would pull focus off the tab row).
  useEffect(() => {
    if (!focusSetting || !draft) return;
    const group = spec.groups.find((g) => g.name === focusSetting.name || g.fields.some((f) => f.name === focusSetting.name)) ?? (focusSetting.name === spec.name ? spec.groups[0] : undefined);
    if (!group) return;
    const fields = group.fields.filter((f) => f.name === focusSetting.name || group.name === focusSetting.name || focusSetting.name === spec.name);
    const node = fields.map((f) => rootRef.current?.querySelector<HTMLElement>(`#${CSS.escape(controlId(f.path))}`)).find(Boolean);
    if (node) {
      node.focus();
      node.scrollIntoView?.({ block: 'center' });
    }
  }, [focusSetting?.name, focusSetting?.request, Boolean(draft)]);

  if (card.loadError && spec.quietLoadFailure) return null;

  const shown = spec.groups.map((group) => ({ group, fields: group.fields.filter((field) => mode(field, group) !== 'hidden') })).filter((g) => g.fields.length > 0);
  const editable = canSave && shown.some(({ group, fields }) => fields.some((field) => mode(field, group) === 'editable'));
  const renderField = (field: FieldSpec, group: FieldGroup) => (
    <PolicyField key={field.path} field={field} id={controlId(field.path)} value={draft![field.path]!} mode={mode(field, group)} error={errors[field.path]} onChange={(value) => card.edit(field.path, value)} />
  );

  return (
    <section ref={rootRef} className="gh-ap-sec-card" aria-labelledby={titleId} aria-busy={card.loading || card.saving}>
      <h3 id={titleId} className="gh-ap-sec-card-title">{t.t(spec.title)}</h3>
      <p className="gh-ap-hint">{t.t(spec.description)}</p>
      {card.loading && !draft && (
        <div className="gh-ap-sec-card-skeleton">
          <p className="gh-ap-visually-hidden">{t.t('security.loading')}</p>
          <div className="gh-ap-skeleton-bar" aria-hidden="true" />
          <div className="gh-ap-skeleton-bar gh-ap-skeleton-short" aria-hidden="true" />
        </div>
      )}
      {card.loadError && !draft && (
        <div className="gh-ap-sec-load-error">
          <p className="gh-ap-banner gh-ap-banner-error" role="alert">{card.loadError}</p>
          <button type="button" className="gh-ap-button-secondary" onClick={() => void card.reload()}>{t.t('common.tryAgain')}</button>
        </div>
      )}
      {draft && (
        <form className="gh-ap-sec-form" noValidate onSubmit={(event) => void card.submit(event)} aria-label={t.t(spec.title)}>
          {shown.map(({ group, fields }, index) =>
            group.legend ? (
              <fieldset key={group.name ?? index} className="gh-ap-sec-fieldset" aria-describedby={group.hint ? `${idPrefix}-${group.name}-hint` : undefined}>
                <legend className="gh-ap-sec-legend">{t.t(group.legend)}</legend>
                {group.hint && <p id={`${idPrefix}-${group.name}-hint`} className="gh-ap-hint">{t.t(group.hint)}</p>}
                {fields.map((field) => renderField(field, group))}
              </fieldset>
            ) : (
              fields.map((field) => renderField(field, group))
            ),
          )}
          {pending && (
            <div className="gh-ap-sec-preview" role="group" aria-labelledby={`${idPrefix}-preview-title`}>
              <p id={`${idPrefix}-preview-title`} className="gh-ap-sec-preview-title">{t.t('security.preview.title')}</p>
              <ul id={`${idPrefix}-preview-effects`} className="gh-ap-sec-effects">
                {pending.effects.map((effect, index) => (
                  <li key={`${effect.code}-${index}`}>{effect.message}</li>
                ))}
              </ul>
              <div className="gh-ap-actions">
                <button type="button" className="gh-ap-button" data-action="confirm" disabled={card.saving} aria-busy={card.saving} aria-describedby={`${idPrefix}-preview-effects`} onClick={card.confirm}>
                  {card.saving && <span className="gh-ap-spinner" aria-hidden="true" />}
                  {t.t(card.saving ? 'security.saving' : 'security.preview.confirm')}
                </button>
                <button type="button" className="gh-ap-button-secondary" disabled={card.saving} onClick={card.cancel}>{t.t('common.cancel')}</button>
              </div>
            </div>
          )}
          {card.banner && <p className="gh-ap-banner gh-ap-banner-error" role="alert" tabIndex={-1}>{card.banner}</p>}
          <div className="gh-ap-actions">
            {editable && !pending && (
              <button type="submit" className="gh-ap-button" disabled={card.saving} aria-busy={card.saving}>
                {card.saving && <span className="gh-ap-spinner" aria-hidden="true" />}
                {t.t(card.saving ? 'security.saving' : 'common.save')}
              </button>
            )}
            <Toast message={card.status || null} />
          </div>
        </form>
      )}
    </section>
  );
}
