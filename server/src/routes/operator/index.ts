/**
 * The Operator area (issue 13): what the vendor's super users manage through the API (and the
 * admin portal's Operator area): plans, features, feature flags, direct entitlement grants and
 * OAuth applications. Every call needs a super user and writes an audit row. (The billing
 * configuration's routes are the billing area's.)
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import type { RouteDeps } from '../deps';

export function operatorArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps): void {
  void app;
  void deps;
}
