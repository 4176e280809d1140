/**
 * `matches` runs operator-written patterns against user data, so a pattern that can backtrack for
 * ever is refused instead of run. A pattern is at most 256 characters, has no back-reference and no
 * repeated group (`*`, `+`, `{n,m}` after `)`) holding a quantifier or an alternation; and its
 * branching stays within a budget of 2^24 steps on an attribute of 256 characters (longer ones are
 * not matched): each repetition costs a factor 256, an unanchored pattern (not starting with `^`)
 * another 256, each `?` or `|` a factor 2. So `.*beta.*` and
 * `^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$` run, `a*a*a*b` does not.
 */

export const MAX_PATTERN_LENGTH = 256;
export const MAX_MATCHED_LENGTH = 256;
/** log2 of the step budget; log2(256) per repetition. */
const BUDGET = 24;
const REPEAT_COST = 8;

interface Group {
  repeats: boolean;
  alternates: boolean;
}

/** The quantifier at `i` ('' when none): `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}`. */
function quantifierAt(pattern: string, i: number): string {
  const c = pattern[i];
  if (c === '*' || c === '+' || c === '?') return c;
  return c === '{' ? (/^\{\d+(,\d*)?\}/.exec(pattern.slice(i))?.[0] ?? '') : '';
}

/** Whether the pattern stays within the bounds above (it may still be an invalid expression). */
export function isSafePattern(pattern: string): boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) return false;
  const stack: Group[] = [{ repeats: false, alternates: false }];
  let cost = pattern.startsWith('^') ? 0 : REPEAT_COST;
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
      // `^a|b`: the second branch is not anchored.
      if (stack.length === 1 && cost < REPEAT_COST) cost += REPEAT_COST;
      cost++;
    } else {
      const q = quantifierAt(pattern, i);
      if (q) {
        i += q.length - 1;
        if (pattern[i + 1] === '?') i++;
        if (q === '?') cost++;
        else if (!/^\{\d+\}$/.test(q)) {
          top.repeats = true;
          cost += REPEAT_COST;
        }
      }
    }
  }
  return cost <= BUDGET;
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
