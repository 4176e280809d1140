/**
 * The rules of a policy form (issue 12, seed 001 sections 3, 5): which fields a policy card shows,
 * how a stored policy becomes a draft and a draft the body a save sends, what the form refuses
 * before calling, and which field a server refusal names.
 */
import { durationFromSeconds, secondsOf, UNIT_SECONDS, type DurationDraft, type DurationUnit } from './duration';

/** A field of a policy: `path` is its place in the body (dotted for nested settings), the name the server's messages use. */
export type FieldSpec =
  | { kind: 'toggle'; path: string; name: string; label: string; hint?: string }
  | { kind: 'number'; path: string; name: string; label: string; hint?: string; min: number; max: number; step?: number; suffix?: string }
  | { kind: 'duration'; path: string; name: string; label: string; hint?: string; min: number; max: number; units: readonly DurationUnit[] }
  | { kind: 'choice'; path: string; name: string; label: string; hint?: string; choices: readonly { value: string; label: string }[] };

/** Fields shown together; `legend` makes them a fieldset, `name` is the setting a target or the host's fieldVisibility names. */
export interface FieldGroup {
  name?: string;
  legend?: string;
  hint?: string;
  fields: readonly FieldSpec[];
}

/** One policy endpoint and its form. */
export interface PolicySpec {
  /** The card's name in fieldVisibility.security and in targets. */
  name: string;
  title: string;
  description: string;
  savedMessage: string;
  path: string;
  /** 'saveById': PATCH when the stored policy has an id, else POST (seed 001 section 5); 'post': always POST. */
  method: 'saveById' | 'post';
  groups: readonly FieldGroup[];
  /** A policy whose load failure the portal does not show (seed 001 section 8: captcha and rotation). */
  quietLoadFailure?: boolean;
  /** A check across fields (catalog keys), beyond each field's bounds. */
  crossCheck?: (body: Record<string, unknown>) => Record<string, string>;
}

export type DraftValue = boolean | string | DurationDraft;
export type Draft = Record<string, DraftValue>;
/** Catalog keys or server sentences, by field path. */
export type FieldErrors = Record<string, string>;
/** What the form refuses before calling: the catalog key and its arguments, by field path. */
export type Problems = Record<string, { key: string; args?: Record<string, string | number> }>;

export const fieldsOf = (spec: PolicySpec): FieldSpec[] => spec.groups.flatMap((group) => group.fields);

function read(policy: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), policy);
}

function write(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/** The form's draft of a stored policy. */
export function draftFrom(spec: PolicySpec, policy: Record<string, unknown>): Draft {
  const draft: Draft = {};
  for (const field of fieldsOf(spec)) {
    const value = read(policy, field.path);
    if (field.kind === 'toggle') draft[field.path] = value === true;
    else if (field.kind === 'duration') draft[field.path] = durationFromSeconds(typeof value === 'number' ? value : field.min, field.units);
    else draft[field.path] = value === undefined || value === null ? '' : String(value);
  }
  return draft;
}

/** The body a save sends (every field of the policy), or the problems that keep it from being sent. */
export function bodyFrom(spec: PolicySpec, draft: Draft): { body: Record<string, unknown>; problems: Problems } {
  const body: Record<string, unknown> = {};
  const problems: Problems = {};
  for (const field of fieldsOf(spec)) {
    const value = draft[field.path];
    if (field.kind === 'toggle') write(body, field.path, value === true);
    else if (field.kind === 'choice') write(body, field.path, String(value));
    else if (field.kind === 'duration') {
      const seconds = secondsOf(value as DurationDraft);
      if (seconds === null || seconds < field.min || seconds > field.max) {
        const unit = (value as DurationDraft).unit;
        problems[field.path] = { key: 'security.error.durationRange', args: { min: Math.ceil(field.min / UNIT_SECONDS[unit]), max: Math.floor(field.max / UNIT_SECONDS[unit]), unit } };
      } else write(body, field.path, seconds);
    } else {
      const text = String(value).trim();
      const number = Number(text);
      const whole = field.step === undefined || Number.isInteger(field.step);
      if (!text || !Number.isFinite(number) || (whole && !Number.isInteger(number)) || number < field.min || number > field.max) {
        problems[field.path] = { key: whole ? 'security.error.wholeNumberRange' : 'security.error.numberRange', args: { min: field.min, max: field.max } };
      } else write(body, field.path, number);
    }
  }
  if (Object.keys(problems).length === 0 && spec.crossCheck) {
    for (const [path, key] of Object.entries(spec.crossCheck(body))) problems[path] = { key };
  }
  return { body, problems };
}

/** True when two bodies hold the same values (a save of an unchanged form calls nothing). */
export function sameBody(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => sameBody((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

const capitalized = (sentence: string) => sentence.charAt(0).toUpperCase() + sentence.slice(1);

/** "maxAttempts cannot be more than the vendor's 5" reads "Cannot be more than the vendor's 5" under the field it names. */
function withoutFieldName(sentence: string, field: string): string {
  if (!sentence.startsWith(`${field} `)) return sentence;
  return capitalized(sentence.slice(field.length + 1));
}

/**
 * Which fields a refused save names, with the sentence to show under each. The server names a field
 * either in `errorContext.field` (a policy looser than the vendor's: the sentence names the vendor's
 * value) or as "path: sentence" (a value out of bounds); the rest goes to the card's banner.
 */
export function fieldErrorsFrom(spec: PolicySpec, error: unknown, fallback: string): { fields: FieldErrors; other: string | null } {
  const paths = fieldsOf(spec).map((field) => field.path);
  const byName = (name: string) => paths.find((path) => path === name) ?? paths.find((path) => path.split('.').pop() === name && paths.filter((p) => p.split('.').pop() === name).length === 1);
  const record = error && typeof error === 'object' ? (error as { message?: unknown; errorContext?: unknown }) : {};
  const message = typeof record.message === 'string' && record.message ? record.message : fallback;
  const context = record.errorContext && typeof record.errorContext === 'object' ? (record.errorContext as Record<string, unknown>) : {};
  const fields: FieldErrors = {};
  const other: string[] = [];
  const named = typeof context.field === 'string' ? byName(context.field) : undefined;
  for (const part of message.split(/, (?=[\w.]+: )/)) {
    const match = /^([\w.]+): (.+)$/.exec(part);
    const path = match ? byName(match[1]!) : undefined;
    if (path) fields[path] ??= capitalized(match![2]!);
    else if (named) fields[named] ??= withoutFieldName(part, String(context.field));
    else other.push(part);
  }
  return { fields, other: other.length > 0 ? other.join(', ') : null };
}
