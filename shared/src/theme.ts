/**
 * Theme tokens: defaults, resolution from the adminBox metadata, and CSS custom properties.
 * The bundles' stylesheets read `--gh-*` variables, so a theme is applied without any inline style
 * sheet (works under a strict CSP).
 */
import type { ThemeTokens } from './core/types';

/** The 'modern' default theme. */
export const defaultTheme: Required<ThemeTokens> = Object.freeze({
  primaryColor: '#4f46e5',
  backgroundColor: '#ffffff',
  textColor: '#111827',
  borderRadius: '10px',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});

const CSS_VARIABLES: Record<keyof ThemeTokens, string> = {
  primaryColor: '--gh-primary',
  backgroundColor: '--gh-background',
  textColor: '--gh-text',
  borderRadius: '--gh-radius',
  fontFamily: '--gh-font',
};

// Values come from tenant-editable metadata: refuse anything that could end the declaration or
// pull in a resource.
const UNSAFE_VALUE = /[;{}<>\\]|url\s*\(|expression\s*\(|@import|\/\*/i;

function safeValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!trimmed || trimmed.length > 200 || UNSAFE_VALUE.test(trimmed)) return undefined;
  return trimmed;
}

/** `{ '--gh-primary': '#4f46e5', ... }` for the tokens that are set and safe. */
export function themeToCssVariables(tokens: ThemeTokens): Record<string, string> {
  const result: Record<string, string> = {};
  for (const key of Object.keys(CSS_VARIABLES) as (keyof ThemeTokens)[]) {
    const value = safeValue(tokens[key]);
    if (value !== undefined) result[CSS_VARIABLES[key]] = value;
  }
  return result;
}

function pick(source: unknown, path: readonly string[]): unknown {
  let current: unknown = source;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Theme tokens from `rows[0].configuration` of the adminBox metadata, over the defaults.
 * Reads `theme.{primaryColor,...}` and the palette form `theme.palette.primary.main`.
 */
export function resolveTheme(metadataConfiguration: Record<string, unknown> | null | undefined): Required<ThemeTokens> {
  const theme = pick(metadataConfiguration, ['theme']);
  const candidates: Record<keyof ThemeTokens, unknown[]> = {
    primaryColor: [pick(theme, ['primaryColor']), pick(theme, ['palette', 'primary', 'main'])],
    backgroundColor: [pick(theme, ['backgroundColor']), pick(theme, ['palette', 'background', 'default'])],
    textColor: [pick(theme, ['textColor']), pick(theme, ['palette', 'text', 'primary'])],
    borderRadius: [pick(theme, ['borderRadius']), pick(theme, ['shape', 'borderRadius'])],
    fontFamily: [pick(theme, ['fontFamily']), pick(theme, ['typography', 'fontFamily'])],
  };
  const resolved = { ...defaultTheme };
  for (const key of Object.keys(candidates) as (keyof ThemeTokens)[]) {
    for (const candidate of candidates[key]) {
      const value = typeof candidate === 'number' && key === 'borderRadius' ? `${candidate}px` : safeValue(candidate);
      if (value !== undefined) {
        resolved[key] = value;
        break;
      }
    }
  }
  return resolved;
}

/** Sets the theme's custom properties on an element (the bundles' themeSetter). */
export function applyThemeToElement(element: { style: { setProperty(name: string, value: string): void } }, tokens: ThemeTokens): void {
  for (const [name, value] of Object.entries(themeToCssVariables(tokens))) element.style.setProperty(name, value);
}
