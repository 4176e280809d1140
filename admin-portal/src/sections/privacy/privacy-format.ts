/** Display rules of the Privacy section. */
import type { MfaDevices } from '@gatehouse/shared/wire';

/** Seed 001 section 8: the message of a failed load. */
export const GENERIC_ERROR = "We're facing some difficulties, Please try again";

/** A moment as the tables show it, e.g. "12 Mar 2026, 14:05"; unparsable is "Unknown". */
export function shortDateTime(iso: string | null): string {
  if (!iso) return 'Unknown';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'Unknown';
  return date.toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** One second factor as a row: what it is and how it is shown. */
export interface FactorRow {
  id: string;
  kind: 'authenticator' | 'phone' | 'securityKey' | 'email';
  label: string;
  detail: string | null;
  createdAt: string;
}

/** Seed 000 "Device kinds: webauthn, phones, authenticators, emails", flattened oldest first. */
export function factorRows(devices: MfaDevices): FactorRow[] {
  const rows: FactorRow[] = [
    ...devices.authenticators.map((d) => ({ id: d.id, kind: 'authenticator' as const, label: 'Authenticator app', detail: null, createdAt: d.createdAt })),
    ...devices.phones.map((d) => ({ id: d.id, kind: 'phone' as const, label: 'Text message', detail: d.phoneNumber, createdAt: d.createdAt })),
    ...devices.webauthn.map((d) => ({
      id: d.id,
      kind: 'securityKey' as const,
      label: d.deviceType === 'internal' ? 'Built-in security key' : d.deviceType === 'android' ? 'Phone as security key' : 'Security key',
      detail: d.name ?? null,
      createdAt: d.createdAt,
    })),
    ...devices.emails.map((d) => ({ id: d.id, kind: 'email' as const, label: 'Email code', detail: d.email, createdAt: d.createdAt })),
  ];
  return rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
