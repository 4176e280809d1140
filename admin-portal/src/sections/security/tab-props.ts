import type { SecurityTab } from '@gatehouse/shared/admin-paths';
import type { SectionProps } from '../section-props';

/** What each tab of the Security section receives from the section (issue 12). */
export interface SecurityTabProps extends SectionProps {
  /** Whether the caller holds fe.secure.write.securityPolicy (fields are never more than view-only without it). */
  canWrite: boolean;
  /** Opens another tab of the section (e.g. from a security-center action). */
  openTab: (tab: SecurityTab) => void;
  /** Reports a save or action: `false` on failure (seed 001 section 4). */
  onResult?: (ok: boolean) => void;
  /** Grows each time the section is opened at `target` again, so the named setting takes focus again. */
  focusRequest?: number;
}
