/**
 * What a session's User-Agent says about the device, for the user's own session list: browser,
 * its major version, operating system and device type, read by bowser (a maintained UA parser).
 * Only ever shown to the session's owner; nothing here decides access.
 */
import Bowser from 'bowser';
import type { UserSession } from '@gatehouse/shared/wire';

export type SessionDevice = UserSession['device'];

const orNull = (value: string | undefined) => (value ? value : null);

export function deviceOf(userAgent: string | null): SessionDevice {
  if (!userAgent) return { browser: null, browserVersion: null, os: null, type: null };
  const parsed = Bowser.parse(userAgent);
  return {
    browser: orNull(parsed.browser.name),
    browserVersion: orNull(parsed.browser.version?.split('.')[0]),
    os: orNull(parsed.os.name),
    type: orNull(parsed.platform.type),
  };
}
