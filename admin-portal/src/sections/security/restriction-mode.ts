import { fieldVisibility, type AdminPortalOptions, type FieldVisibility } from '../../options';

const RANK: Record<FieldVisibility, number> = { hidden: 0, viewOnly: 1, editable: 2 };

/**
 * How a field or action of a restrictions tab is offered: the strictest of the tab's visibility
 * (`adminPortal.fieldVisibility.security.ipRestrictions`), the field's own
 * (`…security['ipRestrictions.add']`) and the caller's permission (no write permission: view-only).
 */
export function restrictionMode(options: AdminPortalOptions, tab: 'ipRestrictions' | 'domainRestrictions', canWrite: boolean): (field: string) => FieldVisibility {
  const tabMode = fieldVisibility(options, 'security', tab);
  return (field) => {
    const own = fieldVisibility(options, 'security', `${tab}.${field}`);
    const strictest = RANK[own] < RANK[tabMode] ? own : tabMode;
    return !canWrite && strictest === 'editable' ? 'viewOnly' : strictest;
  };
}
