import type { AuthSnapshot } from '../../contract';
import type { OperatorApi } from './operator-api';

/** What each Operator tab receives. */
export interface OperatorTabProps {
  api: OperatorApi;
  /** The signed-in super user's snapshot (the billing tab reads the API's public address from the access token). */
  snapshot: AuthSnapshot;
  /** Changes each time the tab is shown again; the tab's lists load again then (-1 while hidden: no load). */
  generation: number;
}
