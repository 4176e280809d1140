/**
 * The SCIM filter language (RFC 7644 section 3.4.2.2) and PATCH paths (section 3.5.2): a tokenizer and
 * a recursive-descent parser producing an AST; matching lives in filter-match.ts.
 *
 * Hostile input: the filter is bounded in length, in nesting depth and in node count before anything
 * is evaluated, and the tokenizer is a single left-to-right scan (no regular expression backtracks
 * over the input), so a filter costs time linear in its length. Every failure is `invalidFilter`
 * (or `invalidPath` for a PATCH path) with a detail naming what was wrong and where.
 */
import { ScimErrors, type ScimError } from './errors';

/** Longest filter accepted (characters). Okta's and Entra's filters are under 200. */
export const MAX_FILTER_LENGTH = 2048;
/** Deepest nesting of parentheses, `not` and value filters. */
export const MAX_FILTER_DEPTH = 16;
/** Most comparison nodes in one filter. */
export const MAX_FILTER_TERMS = 64;

export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
export type FilterValue = string | number | boolean | null;

/** An attribute path: an optional schema URN, an attribute and an optional sub-attribute. */
export interface AttrPath {
  urn: string | null;
  attr: string;
  sub: string | null;
}

export type Filter =
  | { kind: 'compare'; path: AttrPath; op: CompareOp; value: FilterValue }
  | { kind: 'present'; path: AttrPath }
  | { kind: 'and'; left: Filter; right: Filter }
  | { kind: 'or'; left: Filter; right: Filter }
  | { kind: 'not'; filter: Filter }
  /** `emails[type eq "work" and value co "@x"]`: the inner filter's paths are the attribute's sub-attributes. */
  | { kind: 'valuePath'; path: AttrPath; filter: Filter };

/** A PATCH path: `attr`, `attr.sub`, `urn:…:attr`, `attr[filter]` or `attr[filter].sub`; or a bare extension URN. */
export interface PatchPath {
  path: AttrPath;
  filter: Filter | null;
  /** The sub-attribute after a value filter (`emails[type eq "work"].value`). */
  subAfterFilter: string | null;
}

const COMPARE_OPS: ReadonlySet<string> = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);

type Token =
  | { t: 'word'; v: string; at: number }
  | { t: 'string'; v: string; at: number }
  | { t: 'number'; v: number; at: number }
  | { t: '(' | ')' | '[' | ']'; at: number }
  | { t: 'end'; at: number };

function isWordChar(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '-' || c === '_' || c === '.' || c === ':' || c === '$';
}

/** One scan: words (attribute paths, operators, true/false/null), JSON strings, numbers, brackets. */
function tokenize(input: string, fail: (detail: string) => ScimError): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === '[' || c === ']') {
      tokens.push({ t: c, at: i });
      i++;
      continue;
    }
    if (c === '"') {
      const start = i;
      let out = '';
      i++;
      for (;;) {
        if (i >= input.length) throw fail(`Unterminated string starting at position ${start}`);
        const d = input[i]!;
        if (d === '"') break;
        if (d === '\\') {
          const e = input[i + 1];
          const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
          if (e !== undefined && simple[e] !== undefined) {
            out += simple[e];
            i += 2;
            continue;
          }
          if (e === 'u') {
            const hex = input.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw fail(`Invalid \\u escape at position ${i}`);
            out += String.fromCharCode(parseInt(hex, 16));
            i += 6;
            continue;
          }
          throw fail(`Invalid escape at position ${i}`);
        }
        out += d;
        i++;
      }
      tokens.push({ t: 'string', v: out, at: start });
      i++;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const start = i;
      i++;
      while (i < input.length && /[0-9.eE+-]/.test(input[i]!)) i++;
      const text = input.slice(start, i);
      // A word that starts with a digit or '-' is not an attribute name, so this must be a JSON number.
      if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) throw fail(`Invalid number "${text}" at position ${start}`);
      tokens.push({ t: 'number', v: Number(text), at: start });
      continue;
    }
    if (isWordChar(c)) {
      const start = i;
      while (i < input.length && isWordChar(input[i]!)) i++;
      tokens.push({ t: 'word', v: input.slice(start, i), at: start });
      continue;
    }
    throw fail(`Unexpected character "${c}" at position ${i}`);
  }
  tokens.push({ t: 'end', at: input.length });
  return tokens;
}

const ATTR_NAME = /^\$?[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Splits a word into an attribute path. A URN prefix ends at the last ':' (attribute names have none);
 * the rest is `attr` or `attr.sub`. Returns null when the word is not a valid path.
 */
export function parseAttrPath(word: string): AttrPath | null {
  let urn: string | null = null;
  let rest = word;
  const colon = word.lastIndexOf(':');
  if (colon >= 0) {
    urn = word.slice(0, colon);
    rest = word.slice(colon + 1);
    if (!urn.toLowerCase().startsWith('urn:')) return null;
  }
  const parts = rest.split('.');
  if (parts.length > 2 || !parts.every((p) => ATTR_NAME.test(p))) return null;
  return { urn, attr: parts[0]!, sub: parts[1] ?? null };
}

class Parser {
  private pos = 0;
  private terms = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly fail: (detail: string) => ScimError,
  ) {}

  peek(): Token {
    return this.tokens[this.pos]!;
  }
  next(): Token {
    return this.tokens[this.pos++]!;
  }
  private keyword(tok: Token, kw: string): boolean {
    return tok.t === 'word' && tok.v.toLowerCase() === kw;
  }

  parseOr(depth: number): Filter {
    let left = this.parseAnd(depth);
    while (this.keyword(this.peek(), 'or')) {
      this.next();
      left = { kind: 'or', left, right: this.parseAnd(depth) };
    }
    return left;
  }

  private parseAnd(depth: number): Filter {
    let left = this.parseUnary(depth);
    while (this.keyword(this.peek(), 'and')) {
      this.next();
      left = { kind: 'and', left, right: this.parseUnary(depth) };
    }
    return left;
  }

  private parseUnary(depth: number, inValuePath = false): Filter {
    if (depth > MAX_FILTER_DEPTH) throw this.fail(`The filter is nested deeper than ${MAX_FILTER_DEPTH} levels`);
    const tok = this.peek();
    if (this.keyword(tok, 'not')) {
      this.next();
      this.expect('(', 'after "not"');
      const inner = this.parseGroupBody(depth + 1, inValuePath);
      return { kind: 'not', filter: inner };
    }
    if (tok.t === '(') {
      this.next();
      return this.parseGroupBody(depth + 1, inValuePath);
    }
    if (tok.t !== 'word') throw this.fail(`Expected an attribute at position ${tok.at}`);
    this.next();
    const path = parseAttrPath(tok.v);
    if (!path) throw this.fail(`"${tok.v}" at position ${tok.at} is not a valid attribute path`);
    if (this.peek().t === '[') {
      if (inValuePath) throw this.fail(`Value filters cannot be nested (position ${this.peek().at})`);
      if (path.sub !== null) throw this.fail(`A value filter applies to an attribute, not to "${tok.v}"`);
      this.next();
      const inner = this.parseValueFilter(depth + 1);
      this.expect(']', 'to close the value filter');
      return { kind: 'valuePath', path, filter: inner };
    }
    if (++this.terms > MAX_FILTER_TERMS) throw this.fail(`The filter has more than ${MAX_FILTER_TERMS} comparisons`);
    const opTok = this.next();
    if (opTok.t !== 'word') throw this.fail(`Expected an operator after "${tok.v}" at position ${opTok.at}`);
    const op = opTok.v.toLowerCase();
    if (op === 'pr') return { kind: 'present', path };
    if (!COMPARE_OPS.has(op)) throw this.fail(`Unknown operator "${opTok.v}" at position ${opTok.at}`);
    const valTok = this.next();
    let value: FilterValue;
    if (valTok.t === 'string' || valTok.t === 'number') value = valTok.v;
    else if (valTok.t === 'word' && valTok.v === 'true') value = true;
    else if (valTok.t === 'word' && valTok.v === 'false') value = false;
    else if (valTok.t === 'word' && valTok.v === 'null') value = null;
    else throw this.fail(`Expected a value (a quoted string, number, true, false or null) after "${opTok.v}" at position ${valTok.at}`);
    return { kind: 'compare', path, op: op as CompareOp, value };
  }

  /** The body of `( … )`: a full filter, then the closing parenthesis. */
  private parseGroupBody(depth: number, inValuePath: boolean): Filter {
    const inner = inValuePath ? this.parseValueFilter(depth) : this.parseOr(depth);
    this.expect(')', 'to close the parenthesis');
    return inner;
  }

  /** Inside `[ … ]`: and/or/not over comparisons of sub-attributes, no nested value filter. */
  parseValueFilter(depth: number): Filter {
    const and = (): Filter => {
      let left = this.parseUnary(depth, true);
      while (this.keyword(this.peek(), 'and')) {
        this.next();
        left = { kind: 'and', left, right: this.parseUnary(depth, true) };
      }
      return left;
    };
    let left = and();
    while (this.keyword(this.peek(), 'or')) {
      this.next();
      left = { kind: 'or', left, right: and() };
    }
    return left;
  }

  expect(t: '(' | ')' | '[' | ']', why: string): void {
    const tok = this.next();
    if (tok.t !== t) throw this.fail(`Expected "${t}" ${why} at position ${tok.at}`);
  }
}

function bounded(input: unknown, what: string, fail: (detail: string) => ScimError): string {
  if (typeof input !== 'string') throw fail(`The ${what} must be a string`);
  if (input.length > MAX_FILTER_LENGTH) throw fail(`The ${what} is longer than ${MAX_FILTER_LENGTH} characters`);
  if (input.trim() === '') throw fail(`The ${what} is empty`);
  return input;
}

/** Parses a `filter` query parameter; throws `invalidFilter` (400) naming the problem. */
export function parseFilter(input: string): Filter {
  const text = bounded(input, 'filter', ScimErrors.invalidFilter);
  const parser = new Parser(tokenize(text, ScimErrors.invalidFilter), ScimErrors.invalidFilter);
  const filter = parser.parseOr(0);
  const rest = parser.peek();
  if (rest.t !== 'end') throw ScimErrors.invalidFilter(`Unexpected input at position ${rest.at}`);
  return filter;
}

/** Parses a PATCH operation's `path`; throws `invalidPath` (400) naming the problem. */
export function parsePatchPath(input: string): PatchPath {
  const text = bounded(input, 'path', ScimErrors.invalidPath);
  const fail = (detail: string) => ScimErrors.invalidPath(`Invalid path "${text.slice(0, 200)}": ${detail}`);
  const tokens = tokenize(text, fail);
  const first = tokens[0]!;
  if (first.t !== 'word') throw fail('it must start with an attribute name');
  const path = parseAttrPath(first.v);
  if (!path) throw fail(`"${first.v}" is not a valid attribute path`);
  const second = tokens[1]!;
  if (second.t === 'end') return { path, filter: null, subAfterFilter: null };
  if (second.t !== '[' || path.sub !== null) throw fail(`unexpected input at position ${second.at}`);
  // Value filter: parse `[ … ]` with the filter grammar, then an optional `.sub`.
  const parser = new Parser(tokens.slice(2), fail);
  const filter = parser.parseValueFilter(1);
  parser.expect(']', 'to close the value filter');
  const after = parser.next();
  if (after.t === 'end') return { path, filter, subAfterFilter: null };
  if (after.t === 'word' && after.v.startsWith('.') && ATTR_NAME.test(after.v.slice(1)) && parser.peek().t === 'end') {
    return { path, filter, subAfterFilter: after.v.slice(1) };
  }
  throw fail(`unexpected input at position ${after.at}`);
}
