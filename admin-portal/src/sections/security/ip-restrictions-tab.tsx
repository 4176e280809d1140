import type { SecurityTabProps } from './tab-props';

/** The Security section's ipRestrictions tab (issue 12): config, list, "Add my IP", anti-lockout. */
export default function IpRestrictionsTab(_props: SecurityTabProps) {
  return <div className="gh-ap-security-tab" />;
}
