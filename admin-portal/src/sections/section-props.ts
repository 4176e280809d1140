import type { AuthSnapshot, AuthUser, GatehouseApi, GatehouseStore, MountProps } from '../contract';
import type { AdminPortalOptions } from '../options';

/** What every lazily loaded section receives from the portal shell. */
export interface SectionProps {
  /** Visible title of the section (the navigation label). */
  title: string;
  /** Id the section's heading must carry; the content pane is labelled by it. */
  headingId: string;
  user: AuthUser;
  snapshot: AuthSnapshot;
  store: GatehouseStore;
  api: GatehouseApi;
  options: AdminPortalOptions;
  /** The login box's step-up route (the shell passes the host's routes; sections asking for a step-up go there). */
  stepUpUrl?: string;
  /** The login box's oidcRedirectUrl route (the host's routes): where an OIDC SSO connection test comes back to, as real sign-ins do. */
  oidcRedirectUrl?: string;
  /** Navigates the host page (the shell passes the runtime's navigate). */
  navigate?: (url: string) => void;
  /**
   * Opens another section of the portal, optionally at a target inside it (issue 12: the security
   * center opens the Security section at a tab and setting, e.g. 'sessionManagement:idleTimeout').
   */
  openSection?: (section: string, target?: string) => void;
  /** The target this section was opened at by `openSection`, if any: `<tab>` or `<tab>:<setting>`. */
  target?: string;
  /** The checkout dialog (issue 13), when the runtime offers it: the Subscription section's plan cards and "Replace card" open it. */
  checkout?: MountProps['checkout'];
}
