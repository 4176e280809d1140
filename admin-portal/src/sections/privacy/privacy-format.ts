/** Display rules of the Privacy section. */
import type { MfaDevices, UserSession } from '@gatehouse/shared/wire';
import type { Translator } from '../../contract';

/** One second factor as a row: what it is and how it is shown. */
export interface FactorRow {
  id: string;
  kind: 'authenticator' | 'phone' | 'securityKey' | 'email';
  /** Catalog key of what it is ("Authenticator app"). */
  labelKey: string;
  detail: string | null;
  createdAt: string;
}

/** Seed 000 "Device kinds: webauthn, phones, authenticators, emails", flattened oldest first. */
export function factorRows(devices: MfaDevices): FactorRow[] {
  const rows: FactorRow[] = [
    ...devices.authenticators.map((d) => ({ id: d.id, kind: 'authenticator' as const, labelKey: 'privacy.factor.authenticator', detail: null, createdAt: d.createdAt })),
    ...devices.phones.map((d) => ({ id: d.id, kind: 'phone' as const, labelKey: 'privacy.factor.phone', detail: d.phoneNumber, createdAt: d.createdAt })),
    ...devices.webauthn.map((d) => ({
      id: d.id,
      kind: 'securityKey' as const,
      labelKey: d.deviceType === 'internal' ? 'privacy.factor.platformKey' : d.deviceType === 'android' ? 'privacy.factor.phoneKey' : 'privacy.factor.securityKey',
      detail: d.name ?? null,
      createdAt: d.createdAt,
    })),
    ...devices.emails.map((d) => ({ id: d.id, kind: 'email' as const, labelKey: 'privacy.factor.email', detail: d.email, createdAt: d.createdAt })),
  ];
  return rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

const DEVICE_TYPES: ReadonlySet<string> = new Set(['desktop', 'mobile', 'tablet', 'tv', 'bot']);

/** A session's device in words, from the server's reading of its User-Agent: "Chrome 126 on macOS", else "Unknown device". */
export function sessionDevice(session: Pick<UserSession, 'device'>, t: Translator): string {
  const device = session.device;
  if (device?.browser || device?.os) {
    const browser = device.browser ? [device.browser, device.browserVersion].filter(Boolean).join(' ') : null;
    if (browser && device.os) return t.t('privacy.sessions.browserOn', { browser, os: device.os });
    return (browser ?? device.os)!;
  }
  return t.t('privacy.sessions.unknownDevice');
}

/** The catalog key of a session's device type ("Desktop"), or null when unknown. */
export function deviceTypeKey(session: Pick<UserSession, 'device'>): string | null {
  const type = session.device?.type;
  return type && DEVICE_TYPES.has(type) ? `privacy.sessions.type.${type}` : null;
}
