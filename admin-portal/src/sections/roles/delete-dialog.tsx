/** Moved to ../dialogs/delete-dialog.tsx; kept so existing imports work. */
export { DeleteDialog } from '../dialogs/delete-dialog';
