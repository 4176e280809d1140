/**
 * Paths of the connectivity area (issue 16; seed 001 sections 1-5, 7, 9): the event catalogue,
 * webhooks, notification channels, notifications and reports. Plain data, no zod, so the admin
 * portal imports it at run time. Each part adds its own paths here.
 */
export const ConnectivityPaths = {
  /** GET: the event catalogue, `[{ key, category, description, schema, example }]` (any admin of the tenant). */
  events: '/connectivity/resources/events/v1',
} as const;
