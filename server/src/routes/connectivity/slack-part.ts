/**
 * The channels' part of the connectivity area (email, Slack, SMS): the subscription and Slack
 * services, the consumer that turns events into channel jobs, the email/SMS/Slack job handlers and
 * the routes.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createChannelSubscriptionService } from '../../services/connectivity/channels';
import { createChannelDelivery } from '../../services/connectivity/channels-delivery';
import { createSlackService } from '../../services/connectivity/slack';
import { createSlackApi } from '../../services/connectivity/slack-api';
import type { ConnectivityWorker } from '../../services/connectivity/worker';
import type { RouteDeps } from '../deps';
import { emailRoutes, smsRoutes } from './email-sms';
import { slackRoutes } from './slack';

export function channelsPart(app: OpenAPIHono<AppEnv>, deps: RouteDeps, worker: ConnectivityWorker): void {
  const subscriptions = createChannelSubscriptionService({ db: deps.db, clock: deps.clock });
  const slackApi = createSlackApi(deps.config.slack);
  const slack = createSlackService({ db: deps.db, clock: deps.clock, config: deps.config, api: slackApi });
  const delivery = createChannelDelivery({ db: deps.db, clock: deps.clock, config: deps.config, mail: deps.mail, sms: deps.sms, limiter: deps.limiter, slack, slackApi });
  worker.addConsumer(delivery.consumer);
  for (const handler of delivery.handlers) worker.addHandler(handler);
  app.route('/', emailRoutes(deps, subscriptions));
  app.route('/', slackRoutes(deps, slack));
  app.route('/', smsRoutes(deps, subscriptions));
}
