import type { ConnectivityApi } from './connectivity-api';
import type { EventCatalogueEntry } from './connectivity-types';

/** What the section gives each of its tabs. */
export interface ConnectivityTabProps {
  connectivity: ConnectivityApi;
  /** The event catalogue, null while it loads (or when it failed: `catalogueError` says so). */
  catalogue: readonly EventCatalogueEntry[] | null;
  catalogueError: string | null;
  /** The caller holds the tab's write permission (or is a super user). */
  canWrite: boolean;
  /** The tab's heading id (the tab panel is labelled by its tab; this names the list inside). */
  idPrefix: string;
}
