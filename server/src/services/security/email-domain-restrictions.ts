// SCAFFOLD (issue 12, to be replaced by the restrictions engineer): the interface is the contract
// other areas code against; the body below lets every address in.
import type { EmailDomainVerifyResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';

export interface EmailDomainRestrictionService {
  /** Whether `email` may join (or move into) `tenantId` under its email-domain config and lists. */
  check(tenantId: string, email: string): Promise<EmailDomainVerifyResponse>;
  /** Throws the 403 ER-02803 AppError when `email` may not join `tenantId`. */
  assertAllowed(tenantId: string, email: string): Promise<void>;
}

export function createEmailDomainRestrictionService(_deps: { db: Db; clock: Clock; config: Config }): EmailDomainRestrictionService {
  return { check: async () => ({ allowed: true }), assertAllowed: async () => undefined };
}
