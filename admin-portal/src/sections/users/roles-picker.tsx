import type { Role } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';

/** Checkboxes for the tenant's roles, in a fieldset named Roles. */
export function RolesPicker({ roles, selected, onChange, disabled, idPrefix }: { roles: Role[]; selected: string[]; onChange: (ids: string[]) => void; disabled: boolean; idPrefix: string }) {
  const t = useT();
  return (
    <fieldset className="gh-ap-fieldset" disabled={disabled}>
      <legend className="gh-ap-label">{t.t('users.column.roles')}</legend>
      {roles.map((role) => (
        <label key={role.id} className="gh-ap-check" htmlFor={`${idPrefix}-${role.id}`}>
          <input
            id={`${idPrefix}-${role.id}`}
            type="checkbox"
            checked={selected.includes(role.id)}
            onChange={(event) => onChange(event.target.checked ? [...selected, role.id] : selected.filter((id) => id !== role.id))}
          />
          <span>
            {role.name}
            {role.description && <span className="gh-ap-hint"> {role.description}</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
