import { fieldVisibility, type AdminPortalOptions, type FieldVisibility } from '../../options';

/**
 * How a thing of the Security section is offered, from the names it sits under (tab, card, setting,
 * field) in `fieldVisibility.security`: hidden when any is hidden, view-only when any is view-only or
 * the caller cannot write (fe.secure.write.securityPolicy), editable otherwise.
 */
export function securityMode(options: AdminPortalOptions, canWrite: boolean, names: readonly (string | undefined)[]): FieldVisibility {
  const modes = names.filter((name): name is string => Boolean(name)).map((name) => fieldVisibility(options, 'security', name));
  if (modes.includes('hidden')) return 'hidden';
  return !canWrite || modes.includes('viewOnly') ? 'viewOnly' : 'editable';
}
