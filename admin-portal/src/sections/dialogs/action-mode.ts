import type { SectionId } from '../../navigation';
import { fieldVisibility, type AdminPortalOptions, type FieldVisibility } from '../../options';

/**
 * How a write action of a section is offered: hidden when the caller lacks the write permission (the
 * server would refuse), else as the host set it in `adminPortal.fieldVisibility.<section>.<action>`
 * ('hidden': not shown; 'viewOnly': shown disabled; 'editable', the default).
 */
export function actionMode(options: AdminPortalOptions, section: SectionId, canWrite: boolean): (action: string) => FieldVisibility {
  return (action) => (canWrite ? fieldVisibility(options, section, action) : 'hidden');
}
