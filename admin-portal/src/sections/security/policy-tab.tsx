import type { FieldGroup, FieldSpec, PolicySpec } from './policy-form';
import { PolicyCard } from './policy-card';
import type { SecurityTabProps } from './tab-props';
import { securityMode } from './visibility';

/**
 * The cards of a policy tab (sessionManagement, generalSettings): each card loads and saves its own
 * policy. `target` ('<tab>:<setting>') moves focus to that setting once its card has loaded.
 */
export function PolicyTab({ tab, specs, api, options, canWrite, onResult, target, focusRequest }: SecurityTabProps & { tab: string; specs: readonly PolicySpec[] }) {
  const [targetTab, setting] = (target ?? '').split(':');
  const focusSetting = targetTab === tab && setting ? { name: setting, request: focusRequest ?? 0 } : undefined;
  return (
    <div className={specs.length > 1 ? 'gh-ap-sec-cards' : 'gh-ap-sec-single'}>
      {specs
        .filter((spec) => securityMode(options, canWrite, [tab, spec.name]) !== 'hidden')
        .map((spec) => {
          const mode = (field: FieldSpec, group: FieldGroup) => securityMode(options, canWrite, [tab, spec.name, group.name, field.name]);
          const owns = focusSetting && (focusSetting.name === spec.name || spec.groups.some((g) => g.name === focusSetting.name || g.fields.some((f) => f.name === focusSetting.name)));
          return <PolicyCard key={spec.name} spec={spec} api={api} mode={mode} canSave={canWrite} onResult={onResult} focusSetting={owns ? focusSetting : undefined} />;
        })}
    </div>
  );
}
