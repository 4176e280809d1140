/**
 * The server's operator log. Every record is one line: control characters in anything logged
 * (request paths, ids from the URL, provider answers, error messages) are escaped, so input can
 * neither forge a record (`%0a`) nor drive the operator's terminal (escape sequences). Error stacks
 * keep their frame lines, which come from code, under an escaped first line, which may hold input.
 */

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every control character written as an escape (`\n`, `\u0000`, ...). */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (ch) => NAMED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One logged value as text: errors as their escaped message and their stack frames. */
function describe(value: unknown): string {
  if (value instanceof Error) {
    const frames = (value.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    return [escapeControl(`${value.name}: ${value.message}`), ...frames].join('\n');
  }
  return escapeControl(typeof value === 'string' ? value : String(value));
}

export interface Logger {
  info(...parts: unknown[]): void;
  warn(...parts: unknown[]): void;
  error(...parts: unknown[]): void;
}

/** Writes to the console, one record per call, every part escaped. */
export const log: Logger = {
  info: (...parts) => console.info(parts.map(describe).join(' ')),
  warn: (...parts) => console.warn(parts.map(describe).join(' ')),
  error: (...parts) => console.error(parts.map(describe).join(' ')),
};

/** The message of a thrown value, for a one-line record that needs no stack. */
export function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
