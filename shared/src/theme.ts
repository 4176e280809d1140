/**
 * Theme tokens: the documented set (docs/theming.md), light and dark palettes, resolution from the
 * adminBox metadata and the host's `theme` option, and the CSS custom properties the bundles read.
 * The bundles' stylesheets read `--gh-*` variables, so a theme is applied without any inline style
 * sheet (works under a strict CSP). Which palette shows is the root's `data-gh-scheme` attribute:
 * `light`, `dark`, or `system` (the stylesheet follows `prefers-color-scheme`).
 */
import type { ThemeTokens } from './core/types';

export type ColorScheme = 'light' | 'dark' | 'system';

/** The colours of one scheme. Every text/surface pair meets WCAG AA (4.5:1) in the defaults. */
export interface ThemePalette {
  /** Cards, dialogs, inputs. */
  surface: string;
  /** Page-like areas: table headers, hovered rows, read-only fields. */
  surfaceMuted: string;
  text: string;
  /** Hints, captions, secondary text. */
  textMuted: string;
  border: string;
  primary: string;
  /** Text and icons on a primary background. */
  onPrimary: string;
  danger: string;
  success: string;
  /** The focus ring. */
  focus: string;
}

/** A fully resolved theme: both palettes and the shared shape tokens. */
export interface ResolvedTheme {
  mode: ColorScheme;
  light: ThemePalette;
  dark: ThemePalette;
  radius: string;
  font: string;
  /** The spacing unit; the stylesheets use multiples of it. */
  spacing: string;
  shadow: string;
}

const LIGHT: ThemePalette = Object.freeze({
  surface: '#ffffff',
  surfaceMuted: '#f3f4f6',
  text: '#111827',
  textMuted: '#4b5563',
  border: '#d1d5db',
  primary: '#4f46e5',
  onPrimary: '#ffffff',
  danger: '#b42318',
  success: '#067647',
  focus: '#4f46e5',
});

const DARK: ThemePalette = Object.freeze({
  surface: '#111827',
  surfaceMuted: '#1f2937',
  text: '#f9fafb',
  textMuted: '#c2c8d0',
  border: '#4b5563',
  primary: '#a5b4fc',
  onPrimary: '#111827',
  danger: '#fca5a5',
  success: '#6ee7b7',
  focus: '#a5b4fc',
});

/** The 'modern' default theme. */
export const defaultTheme: ResolvedTheme = Object.freeze({
  mode: 'system',
  light: LIGHT,
  dark: DARK,
  radius: '10px',
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  spacing: '4px',
  shadow: '0 1px 2px rgb(16 24 40 / 6%), 0 12px 32px -8px rgb(16 24 40 / 14%)',
});

const PALETTE_KEYS = Object.keys(LIGHT) as (keyof ThemePalette)[];
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

// Values come from tenant-editable metadata and host options: refuse anything that could end the
// declaration or pull in a resource.
const UNSAFE_VALUE = /[;{}<>\\]|url\s*\(|expression\s*\(|@import|\/\*/i;

function safeValue(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!trimmed || trimmed.length > 200 || UNSAFE_VALUE.test(trimmed)) return undefined;
  return trimmed;
}

function pick(source: unknown, path: readonly string[]): unknown {
  let current: unknown = source;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const first = (...candidates: unknown[]) => candidates.map(safeValue).find((v) => v !== undefined);
const px = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? `${value}px` : safeValue(value));

function schemeOf(value: unknown): ColorScheme | undefined {
  return value === 'light' || value === 'dark' || value === 'system' ? value : undefined;
}

/**
 * One theme source (metadata's `theme`, or the host's `theme` option) over `base`. Understands the
 * documented shape (`mode`, `light`, `dark`, `radius`, `font`, `spacing`, `shadow`), the flat
 * legacy tokens (`primaryColor`, `backgroundColor`, `textColor`, `borderRadius`, `fontFamily`) and
 * the MUI-like palette form (`palette.primary.main`, `palette.mode`, `shape.borderRadius`).
 */
function overlay(base: ResolvedTheme, source: unknown): ResolvedTheme {
  if (typeof source === 'string') return { ...base, mode: schemeOf(source) ?? base.mode };
  if (typeof source !== 'object' || source === null) return base;
  const s = source as Record<string, unknown>;
  const palette = (scheme: 'light' | 'dark'): ThemePalette => {
    const own = pick(s, [scheme]);
    const result = { ...base[scheme] };
    for (const key of PALETTE_KEYS) {
      const value = first(pick(own, [key]));
      if (value !== undefined) result[key] = value;
    }
    // Flat and palette forms describe the light scheme; a primary colour applies to both.
    if (scheme === 'light') {
      const surface = first(s.backgroundColor, pick(s, ['palette', 'background', 'default']));
      const text = first(s.textColor, pick(s, ['palette', 'text', 'primary']));
      if (surface && !pick(own, ['surface'])) result.surface = surface;
      if (text && !pick(own, ['text'])) result.text = text;
    }
    // A primary colour of the flat or palette form is the brand's, chosen on a light page: the dark
    // scheme takes it only where it stays readable there (WCAG AA on the surface and under its text).
    const primary = first(s.primaryColor, pick(s, ['palette', 'primary', 'main']));
    if (primary && !pick(own, ['primary']) && (scheme === 'light' || readableOn(primary, result))) result.primary = primary;
    return result;
  };
  return {
    mode: schemeOf(s.mode) ?? schemeOf(pick(s, ['palette', 'mode'])) ?? base.mode,
    light: palette('light'),
    dark: palette('dark'),
    radius: px(s.radius) ?? px(s.borderRadius) ?? px(pick(s, ['shape', 'borderRadius'])) ?? base.radius,
    font: first(s.font, s.fontFamily, pick(s, ['typography', 'fontFamily'])) ?? base.font,
    spacing: px(s.spacing) ?? base.spacing,
    shadow: first(s.shadow) ?? base.shadow,
  };
}

/**
 * The theme to show: the defaults, under the tenant's metadata (`rows[0].configuration.theme`),
 * under the host's `theme` option (a scheme name, or tokens), which wins.
 */
export function resolveTheme(metadataConfiguration: Record<string, unknown> | null | undefined, hostTheme?: unknown): ResolvedTheme {
  return overlay(overlay(defaultTheme, pick(metadataConfiguration, ['theme'])), hostTheme);
}

/** The host's `theme` option over a theme the loader resolved from metadata. */
export function withHostTheme(theme: ResolvedTheme | ThemeTokens, hostTheme: unknown): ResolvedTheme {
  return overlay(isResolved(theme) ? theme : overlay(defaultTheme, theme), hostTheme);
}

function isResolved(theme: ResolvedTheme | ThemeTokens): theme is ResolvedTheme {
  return typeof (theme as ResolvedTheme).light === 'object' && typeof (theme as ResolvedTheme).dark === 'object' && 'spacing' in theme;
}

/**
 * `{ '--gh-primary': ..., '--gh-dark-primary': ..., '--gh-radius': ... }`: every token, light ones
 * as `--gh-<token>`, dark ones as `--gh-dark-<token>`. Unsafe values were dropped at resolution.
 */
export function themeToCssVariables(theme: ResolvedTheme): Record<string, string> {
  const result: Record<string, string> = {};
  for (const key of PALETTE_KEYS) {
    result[`--gh-${kebab(key)}`] = theme.light[key];
    result[`--gh-dark-${kebab(key)}`] = theme.dark[key];
  }
  result['--gh-radius'] = theme.radius;
  result['--gh-font'] = theme.font;
  result['--gh-spacing'] = theme.spacing;
  result['--gh-shadow'] = theme.shadow;
  return result;
}

/** The parts of a DOM element a theme touches. */
export interface ThemedElement {
  style: { setProperty(name: string, value: string): void; removeProperty(name: string): string };
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
}

/**
 * A bundle's themeSetter for its mount element: `apply` sets every token as a custom property and
 * the scheme as `data-gh-scheme`, with the host's `theme` option over what it is given; `clear`
 * undoes it all at unmount. Apply `defaultTheme` at mount so the scheme holds before the loader's
 * first call.
 */
export function createThemeApplier(element: ThemedElement, hostTheme: unknown): { apply(theme: ResolvedTheme | ThemeTokens): void; clear(): void } {
  const applied = new Set<string>();
  return {
    apply(theme) {
      const resolved = withHostTheme(theme, hostTheme);
      for (const [name, value] of Object.entries(themeToCssVariables(resolved))) {
        element.style.setProperty(name, value);
        applied.add(name);
      }
      element.setAttribute('data-gh-scheme', resolved.mode);
    },
    clear() {
      for (const name of applied) element.style.removeProperty(name);
      applied.clear();
      element.removeAttribute('data-gh-scheme');
    },
  };
}

/** A `#rrggbb` primary that keeps 4.5:1 against the palette's surface and its text on primary. */
function readableOn(primary: string, palette: ThemePalette): boolean {
  const hex = /^#[0-9a-f]{6}$/i;
  if (!hex.test(primary) || !hex.test(palette.surface) || !hex.test(palette.onPrimary)) return false;
  return contrastRatio(primary, palette.surface) >= 4.5 && contrastRatio(primary, palette.onPrimary) >= 4.5;
}

/** The WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
