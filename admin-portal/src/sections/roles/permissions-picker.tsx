import type { Permission, PermissionCategory } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';

/** Checkboxes for the permission catalogue, one fieldset per category (uncategorised ones last, under "Other"). */
export function PermissionsPicker({ permissions, categories, selected, onChange, disabled, idPrefix }: {
  permissions: Permission[];
  categories: PermissionCategory[];
  selected: string[];
  onChange: (ids: string[]) => void;
  disabled: boolean;
  idPrefix: string;
}) {
  const t = useT();
  const known = new Set(categories.map((c) => c.id));
  const groups = [
    ...categories.map((c) => ({ id: c.id, name: c.name, items: permissions.filter((p) => p.categoryId === c.id) })),
    { id: 'other', name: t.t('roles.picker.other'), items: permissions.filter((p) => !p.categoryId || !known.has(p.categoryId)) },
  ].filter((g) => g.items.length > 0);
  return (
    <div className="gh-ap-permissions">
      <p className="gh-ap-label">{t.t('roles.picker.title', { count: selected.length })}</p>
      {groups.map((group) => (
        <fieldset key={group.id} className="gh-ap-fieldset" disabled={disabled}>
          <legend className="gh-ap-hint">{group.name}</legend>
          {group.items.map((permission) => (
            <label key={permission.id} className="gh-ap-check" htmlFor={`${idPrefix}-${permission.id}`}>
              <input
                id={`${idPrefix}-${permission.id}`}
                type="checkbox"
                checked={selected.includes(permission.id)}
                onChange={(event) => onChange(event.target.checked ? [...selected, permission.id] : selected.filter((id) => id !== permission.id))}
              />
              <span>
                {permission.name}
                <span className="gh-ap-hint"> {permission.key}</span>
              </span>
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  );
}
