/**
 * The passkey prompt rule of seed 000 section 4.2, as a pure function so every condition is
 * tested on its own. The flow gathers the facts; this only decides.
 */
import { isFlagOn } from '../flags';
import { PASSKEYS_FLAG, PASSKEYS_STRATEGY } from '../wire/passwordless/passkeys';

/** localStorage key of the "Don't show again" choice (per browser, for every user of it). */
export const PASSKEYS_DONT_SHOW_AGAIN_KEY = 'gatehouse-passkeys-dont-show-again';
/** localStorage key of the preferred login method ('Passkeys' once the user signs in with or adds a passkey). */
export const PREFERRED_LOGIN_METHOD_KEY = 'gatehouse-preferred-login-method';

export interface PasskeyPromptFacts {
  flags: Record<string, string> | null | undefined;
  secondaryLoginStrategies: readonly { strategy: string; isActive: boolean }[] | undefined;
  preferredLoginMethod: string | null;
  dontShowAgain: boolean;
  deviceCount: number;
}

/** True only when all five hold: flag on, active passkeys secondary strategy, not preferred, not dismissed, no devices. */
export function shouldPromptPasskeys(facts: PasskeyPromptFacts): boolean {
  return (
    isFlagOn(facts.flags, PASSKEYS_FLAG) &&
    (facts.secondaryLoginStrategies ?? []).some((s) => s.strategy === PASSKEYS_STRATEGY && s.isActive) &&
    facts.preferredLoginMethod !== PASSKEYS_STRATEGY &&
    !facts.dontShowAgain &&
    facts.deviceCount === 0
  );
}
