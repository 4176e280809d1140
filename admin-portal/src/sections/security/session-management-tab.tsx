import { SESSIONS_SPEC } from './policy-specs';
import { PolicyTab } from './policy-tab';
import type { SecurityTabProps } from './tab-props';

const SPECS = [SESSIONS_SPEC];

/**
 * The sessionManagement tab (issue 12): idle timeout, forced re-login and concurrent sessions, in
 * minutes, hours or days (the API keeps seconds), saved together after a dry-run preview.
 */
export default function SessionManagementTab(props: SecurityTabProps) {
  return <PolicyTab {...props} tab="sessionManagement" specs={SPECS} />;
}
