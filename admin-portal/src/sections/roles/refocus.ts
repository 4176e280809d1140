/** Moved to ../dialogs/refocus.ts (and `Modal` now keeps focus on its own); kept so existing imports work. */
export { useRefocusOnError } from '../dialogs/refocus';
