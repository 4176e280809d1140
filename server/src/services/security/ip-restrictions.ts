// SCAFFOLD (issue 12, to be replaced by the restrictions engineer): the interface is the contract
// other areas code against; the body below lets every address in.
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';

export interface IpRestrictionService {
  /** Whether `ip` may act for a member of `tenantId` under the tenant's IP config and lists. */
  isAllowed(tenantId: string, ip: string): Promise<boolean>;
  /** Throws the 403 ER-IP-RESTRICTED AppError when `ip` may not act for a member of `tenantId`. */
  assertAllowed(tenantId: string, ip: string): Promise<void>;
}

export function createIpRestrictionService(_deps: { db: Db; clock: Clock; config: Config }): IpRestrictionService {
  return { isAllowed: async () => true, assertAllowed: async () => undefined };
}
