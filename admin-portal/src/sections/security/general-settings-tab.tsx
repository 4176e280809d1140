import { GENERAL_SPECS } from './policy-specs';
import { PolicyTab } from './policy-tab';
import type { SecurityTabProps } from './tab-props';

/**
 * The generalSettings tab (issue 12): MFA, lockout, password history, password rules, rotation,
 * captcha and user emails, each a card that saves on its own after a dry-run preview.
 */
export default function GeneralSettingsTab(props: SecurityTabProps) {
  return <PolicyTab {...props} tab="generalSettings" specs={GENERAL_SPECS} />;
}
