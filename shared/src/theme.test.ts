import { describe, expect, it } from 'vitest';
import { contrastRatio, createThemeApplier, defaultTheme, resolveTheme, themeToCssVariables, withHostTheme, type ThemePalette } from './theme';

function fakeElement() {
  const style: Record<string, string> = {};
  const attributes: Record<string, string> = {};
  return {
    style: { setProperty: (n: string, v: string) => void (style[n] = v), removeProperty: (n: string) => ((delete style[n]), '') },
    setAttribute: (n: string, v: string) => void (attributes[n] = v),
    removeAttribute: (n: string) => void delete attributes[n],
    values: style,
    attributes,
  };
}

describe('theme', () => {
  it('emits every token, light as --gh-<token> and dark as --gh-dark-<token>', () => {
    const variables = themeToCssVariables(defaultTheme);
    expect(variables['--gh-surface']).toBe('#ffffff');
    expect(variables['--gh-dark-surface']).toBe('#111827');
    expect(variables['--gh-text-muted']).toBe(defaultTheme.light.textMuted);
    expect(variables['--gh-on-primary']).toBe(defaultTheme.light.onPrimary);
    expect(Object.keys(variables)).toEqual(expect.arrayContaining(['--gh-radius', '--gh-font', '--gh-spacing', '--gh-shadow', '--gh-dark-focus']));
  });

  it('meets WCAG AA contrast for text on its surfaces in both default schemes', () => {
    for (const palette of [defaultTheme.light, defaultTheme.dark] as ThemePalette[]) {
      for (const [fg, bg] of [
        [palette.text, palette.surface],
        [palette.text, palette.surfaceMuted],
        [palette.textMuted, palette.surface],
        [palette.textMuted, palette.surfaceMuted],
        [palette.onPrimary, palette.primary],
        [palette.primary, palette.surface],
        [palette.danger, palette.surface],
        [palette.success, palette.surface],
      ] as const) {
        expect(contrastRatio(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('drops values that could inject CSS', () => {
    const theme = resolveTheme({ theme: { primaryColor: 'red; } body { display:none', backgroundColor: 'url(https://evil/x.png)', textColor: '</style>', font: 'x /* y */' } });
    expect(theme.light.primary).toBe(defaultTheme.light.primary);
    expect(theme.light.surface).toBe(defaultTheme.light.surface);
    expect(theme.light.text).toBe(defaultTheme.light.text);
    expect(theme.font).toBe(defaultTheme.font);
  });

  it('resolves metadata over the defaults in the documented, flat and palette shapes', () => {
    expect(resolveTheme(null)).toEqual(defaultTheme);
    const flat = resolveTheme({ theme: { primaryColor: '#123456', backgroundColor: '#fafafa', borderRadius: 6 } });
    expect([flat.light.primary, flat.dark.primary, flat.light.surface, flat.dark.surface, flat.radius]).toEqual(['#123456', defaultTheme.dark.primary, '#fafafa', defaultTheme.dark.surface, '6px']);
    const palette = resolveTheme({ theme: { palette: { mode: 'dark', primary: { main: '#abcdef' } }, shape: { borderRadius: 6 } } });
    expect([palette.mode, palette.light.primary, palette.radius]).toEqual(['dark', '#abcdef', '6px']);
    const documented = resolveTheme({ theme: { mode: 'light', dark: { primary: '#c4b5fd', surface: '#000000' }, spacing: 5 } });
    expect([documented.mode, documented.light.primary, documented.dark.primary, documented.dark.surface, documented.spacing]).toEqual(['light', defaultTheme.light.primary, '#c4b5fd', '#000000', '5px']);
  });

  it('lets the host’s theme option win over the tenant’s metadata, as a scheme name or as tokens', () => {
    const tenant = resolveTheme({ theme: { mode: 'light', primaryColor: '#123456' } });
    expect(withHostTheme(tenant, 'dark').mode).toBe('dark');
    expect(withHostTheme(tenant, 'dark').light.primary).toBe('#123456');
    const host = withHostTheme(tenant, { mode: 'system', light: { primary: '#0b5fff' } });
    expect([host.mode, host.light.primary]).toEqual(['system', '#0b5fff']);
    expect(withHostTheme(tenant, 'purple').mode).toBe('light');
  });

  it('applies a theme to an element with the scheme attribute, and clears everything it set', () => {
    const element = fakeElement();
    const applier = createThemeApplier(element, { mode: 'dark' });
    applier.apply(resolveTheme({ theme: { primaryColor: '#ff0066' } }));
    expect(element.values['--gh-primary']).toBe('#ff0066');
    expect(element.attributes['data-gh-scheme']).toBe('dark');
    applier.clear();
    expect(element.values).toEqual({});
    expect(element.attributes).toEqual({});
  });
  it('keeps a light-page brand colour out of the dark scheme where it would be unreadable (the seed metadata primary #3b5bdb failed axe in dark mode)', () => {
    const seed = resolveTheme({ theme: { palette: { primary: { main: '#3b5bdb' } } } });
    expect(seed.light.primary).toBe('#3b5bdb');
    expect(seed.dark.primary).toBe(defaultTheme.dark.primary);
    const pale = resolveTheme({ theme: { primaryColor: '#fcd34d' } });
    expect(pale.dark.primary).toBe('#fcd34d');
  });
});
