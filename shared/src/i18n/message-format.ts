/**
 * ICU MessageFormat, the subset product strings need, on `Intl` alone: `{name}` arguments,
 * `{n, plural, =0 {...} one {# item} other {# items}}` (with `offset:`), `{x, select, a {...} other {...}}`,
 * `{n, selectordinal, ...}`, `{n, number}` and `{d, date, short|medium|long|full}` / `{d, time, ...}`.
 * Apostrophes quote as in ICU: `''` is one apostrophe, `'{'` a literal brace, and a lone apostrophe
 * (as in "don't") is itself.
 *
 * Why not a library: intl-messageformat and @messageformat/core each add more than the whole of
 * this file to the first load of the login box, and the plural and date rules they wrap are the
 * browser's own `Intl.PluralRules` and `Intl.DateTimeFormat`, which this uses directly.
 */

export type MessageValue = string | number | boolean | Date | null | undefined;
export type MessageValues = Record<string, MessageValue>;

type Part =
  | { kind: 'text'; text: string }
  | { kind: 'pound' }
  | { kind: 'arg'; name: string; format?: 'number' | 'date' | 'time'; style?: string }
  | { kind: 'plural'; name: string; ordinal: boolean; offset: number; cases: Record<string, Part[]> }
  | { kind: 'select'; name: string; cases: Record<string, Part[]> };

/** A message that does not parse: says where, so a translator can find the typo. */
export class MessageSyntaxError extends Error {
  constructor(message: string, source: string, at: number) {
    super(`${message} at ${at} in "${source}"`);
    this.name = 'MessageSyntaxError';
  }
}

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  parse(): Part[] {
    const parts = this.parts(false);
    if (this.at < this.source.length) this.fail('Unexpected }');
    return parts;
  }

  private fail(message: string): never {
    throw new MessageSyntaxError(message, this.source, this.at);
  }

  /** Text and arguments until a `}` that closes the enclosing case (not consumed), or the end. */
  private parts(inPlural: boolean): Part[] {
    const parts: Part[] = [];
    let text = '';
    const flush = () => {
      if (text) parts.push({ kind: 'text', text });
      text = '';
    };
    while (this.at < this.source.length) {
      const ch = this.source[this.at]!;
      if (ch === "'") {
        text += this.quoted(inPlural);
      } else if (ch === '{') {
        flush();
        parts.push(this.argument(inPlural));
      } else if (ch === '}') {
        break;
      } else if (ch === '#' && inPlural) {
        flush();
        parts.push({ kind: 'pound' });
        this.at++;
      } else {
        text += ch;
        this.at++;
      }
    }
    flush();
    return parts;
  }

  /** An apostrophe and what it quotes, as ICU's DOUBLE_OPTIONAL apostrophe mode reads it. */
  private quoted(inPlural: boolean): string {
    const next = this.source[this.at + 1];
    if (next === "'") {
      this.at += 2;
      return "'";
    }
    if (next === '{' || next === '}' || (inPlural && next === '#')) {
      const end = this.source.indexOf("'", this.at + 1);
      const literal = this.source.slice(this.at + 1, end < 0 ? undefined : end);
      this.at = end < 0 ? this.source.length : end + 1;
      return literal.replaceAll("''", "'");
    }
    this.at++;
    return "'";
  }

  private skipSpace(): void {
    while (/\s/.test(this.source[this.at] ?? '')) this.at++;
  }

  private word(): string {
    this.skipSpace();
    const match = /^[^\s{},]+/.exec(this.source.slice(this.at));
    if (!match) this.fail('Expected a name');
    this.at += match[0].length;
    this.skipSpace();
    return match[0];
  }

  private expect(ch: string): void {
    this.skipSpace();
    if (this.source[this.at] !== ch) this.fail(`Expected ${ch}`);
    this.at++;
  }

  private argument(inPlural: boolean): Part {
    this.expect('{');
    const name = this.word();
    if (this.source[this.at] === '}') {
      this.at++;
      return { kind: 'arg', name };
    }
    this.expect(',');
    const type = this.word();
    if (type === 'number' || type === 'date' || type === 'time') {
      let style: string | undefined;
      if (this.source[this.at] === ',') {
        this.at++;
        style = this.word();
      }
      this.expect('}');
      return { kind: 'arg', name, format: type, ...(style ? { style } : {}) };
    }
    if (type !== 'plural' && type !== 'select' && type !== 'selectordinal') this.fail(`Unknown argument type ${type}`);
    this.expect(',');
    let offset = 0;
    const cases: Record<string, Part[]> = {};
    for (;;) {
      this.skipSpace();
      if (this.source[this.at] === '}') break;
      const selector = this.word();
      if (selector.startsWith('offset:')) {
        offset = Number(selector.slice('offset:'.length));
        if (!Number.isFinite(offset)) this.fail('Bad offset');
        continue;
      }
      this.expect('{');
      // `#` is the plural's number, also inside a select nested in a plural case.
      cases[selector] = this.parts(type !== 'select' || inPlural);
      this.expect('}');
    }
    this.at++;
    if (!cases.other) this.fail(`The ${type} of ${name} has no "other" case`);
    return type === 'select' ? { kind: 'select', name, cases } : { kind: 'plural', name, ordinal: type === 'selectordinal', offset, cases };
  }
}

const parsed = new Map<string, Part[]>();

/** Parses `message` once (cached) and throws MessageSyntaxError when it is malformed. */
export function parseMessage(message: string): Part[] {
  let parts = parsed.get(message);
  if (!parts) {
    parts = new Parser(message).parse();
    parsed.set(message, parts);
  }
  return parts;
}

const DATE_STYLES = new Set(['short', 'medium', 'long', 'full']);

function render(parts: Part[], values: MessageValues, locale: string, pound: number | undefined): string {
  let out = '';
  for (const part of parts) {
    switch (part.kind) {
      case 'text':
        out += part.text;
        break;
      case 'pound':
        out += pound === undefined ? '#' : new Intl.NumberFormat(locale).format(pound);
        break;
      case 'arg': {
        const value = values[part.name];
        if (value === undefined || value === null) {
          out += `{${part.name}}`;
        } else if (part.format === 'number') {
          out += new Intl.NumberFormat(locale, part.style === 'percent' ? { style: 'percent' } : part.style === 'integer' ? { maximumFractionDigits: 0 } : {}).format(Number(value));
        } else if (part.format === 'date' || part.format === 'time') {
          const style = (part.style && DATE_STYLES.has(part.style) ? part.style : 'medium') as 'short' | 'medium' | 'long' | 'full';
          const date = value instanceof Date ? value : new Date(value as string | number);
          out += new Intl.DateTimeFormat(locale, part.format === 'date' ? { dateStyle: style } : { timeStyle: style }).format(date);
        } else {
          out += String(value);
        }
        break;
      }
      case 'select': {
        const key = String(values[part.name] ?? 'other');
        out += render(part.cases[key] ?? part.cases.other!, values, locale, pound);
        break;
      }
      case 'plural': {
        const n = Number(values[part.name] ?? 0);
        const exact = part.cases[`=${n}`];
        const shown = n - part.offset;
        const category = new Intl.PluralRules(locale, { type: part.ordinal ? 'ordinal' : 'cardinal' }).select(shown);
        out += render(exact ?? part.cases[category] ?? part.cases.other!, values, locale, shown);
        break;
      }
    }
  }
  return out;
}

/** `message` with its arguments filled in for `locale`. */
export function formatMessage(message: string, values: MessageValues = {}, locale = 'en'): string {
  return render(parseMessage(message), values, locale, undefined);
}

/** The argument names a message uses (a translation must use the same ones). */
export function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (parts: Part[]) => {
    for (const part of parts) {
      if (part.kind === 'arg') names.add(part.name);
      if (part.kind === 'plural' || part.kind === 'select') {
        names.add(part.name);
        Object.values(part.cases).forEach(walk);
      }
    }
  };
  walk(parseMessage(message));
  return [...names].sort();
}
