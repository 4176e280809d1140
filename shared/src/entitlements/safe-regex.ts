/**
 * `matches` runs host-written patterns against user data, so a pattern that can backtrack for
 * ever is refused instead of run: at most 256 characters, no back-references, no repeated group
 * (`*`, `+`, `{}` after `)`) that itself holds a quantifier or an alternation, and at most 3
 * repetitions and 8 quantifiers and alternations in all. Attributes longer than 256 characters are
 * not matched. Within those bounds the worst case is about n³ steps for n = 256.
 */

export const MAX_PATTERN_LENGTH = 256;
export const MAX_MATCHED_LENGTH = 256;
const MAX_REPEATS = 3;
const MAX_CHOICES = 8;

interface Group {
  repeats: boolean;
  alternates: boolean;
}

/** The length of the quantifier at `i` ('' when none): `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}`. */
function quantifierAt(pattern: string, i: number): string {
  const c = pattern[i];
  if (c === '*' || c === '+' || c === '?') return c;
  return c === '{' ? (/^\{\d+(,\d*)?\}/.exec(pattern.slice(i))?.[0] ?? '') : '';
}

/** Whether the pattern stays within the bounds above (it may still be an invalid expression). */
export function isSafePattern(pattern: string): boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) return false;
  const stack: Group[] = [{ repeats: false, alternates: false }];
  let repeats = 0;
  let choices = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const top = stack[stack.length - 1] as Group;
    if (c === '\\') {
      if (/[1-9k]/.test(pattern[i + 1] ?? '')) return false;
      i++;
    } else if (c === '[') {
      while (++i < pattern.length && pattern[i] !== ']') if (pattern[i] === '\\') i++;
    } else if (c === '(') {
      stack.push({ repeats: false, alternates: false });
      if (pattern[i + 1] === '?') i++;
    } else if (c === ')') {
      const group = stack.pop();
      if (!group || !stack.length) return false;
      const parent = stack[stack.length - 1] as Group;
      const q = quantifierAt(pattern, i + 1);
      if (q && q !== '?' && (group.repeats || group.alternates)) return false;
      parent.repeats ||= group.repeats;
      parent.alternates ||= group.alternates;
    } else if (c === '|') {
      top.alternates = true;
      choices++;
    } else {
      const q = quantifierAt(pattern, i);
      if (q) {
        i += q.length - 1;
        choices++;
        if (q !== '?') {
          top.repeats = true;
          repeats++;
        }
      }
    }
  }
  return repeats <= MAX_REPEATS && choices <= MAX_CHOICES;
}

/** The expression of a safe pattern; undefined when it is unsafe or invalid. */
export function safeRegExp(pattern: unknown): RegExp | undefined {
  if (typeof pattern !== 'string' || !isSafePattern(pattern)) return undefined;
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}
