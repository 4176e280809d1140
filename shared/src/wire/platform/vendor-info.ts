import { z } from 'zod';

/**
 * GET /vendors/public/info: who runs this deployment, as anyone may see it (page titles, the
 * "back to the application" link). Nothing of any tenant or user; the deployment's login settings
 * are the vendor public config (GET /vendors/public).
 */
export const VendorPublicInfo = z.object({
  /** The product's name (GATEHOUSE_APP_NAME). */
  name: z.string(),
  /** The application's address (GATEHOUSE_APP_URL). */
  applicationUrl: z.string(),
});
export type VendorPublicInfo = z.infer<typeof VendorPublicInfo>;
