/** A feature flag counts as on only when its value is the string 'on' (seed 000 section 4.1). */
export function isFlagOn(flags: Record<string, string> | null | undefined, name: string): boolean {
  return flags?.[name] === 'on';
}
