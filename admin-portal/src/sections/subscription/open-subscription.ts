/** Where a limit is met (Usage meters, the invite dialog's seat-limit refusal), the way to the Subscription section, when this user can open it. */
import { isEntryVisible, NAVIGATION } from '../../navigation';
import type { SectionProps } from '../section-props';

const SUBSCRIPTION_ENTRY = NAVIGATION.find((entry) => entry.section === 'subscription')!;

/** Opens the Subscription section; undefined when the portal cannot open it or the user does not see it. */
export function subscriptionOpener({ user, options, openSection }: Pick<SectionProps, 'user' | 'options' | 'openSection'>): (() => void) | undefined {
  if (!openSection || !isEntryVisible(SUBSCRIPTION_ENTRY, { user, overrides: options.navigation, flags: options.flags })) return undefined;
  return () => openSection('subscription');
}
