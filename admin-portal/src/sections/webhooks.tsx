import { ConnectivitySection } from './connectivity/connectivity-section';
import type { SectionProps } from './section-props';

/**
 * The navigation's `webhooks` entry (seed 001 section 2: fe.connectivity.read.webhooks), shown as
 * Connectivity: the email, Slack, SMS and webhook channels of the account (issue 16).
 */
export default function WebhooksSection(props: SectionProps) {
  return <ConnectivitySection {...props} />;
}
