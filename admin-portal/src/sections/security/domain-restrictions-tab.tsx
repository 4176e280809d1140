import type { SecurityTabProps } from './tab-props';

/** The Security section's domainRestrictions tab (issue 12): config and the list of email domains. */
export default function DomainRestrictionsTab(_props: SecurityTabProps) {
  return <div className="gh-ap-security-tab" />;
}
