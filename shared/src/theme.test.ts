import { describe, expect, it } from 'vitest';
import { applyThemeToElement, defaultTheme, resolveTheme, themeToCssVariables } from './theme';

describe('theme', () => {
  it('maps tokens to --gh-* custom properties', () => {
    expect(themeToCssVariables({ primaryColor: '#f00', borderRadius: '4px' })).toEqual({ '--gh-primary': '#f00', '--gh-radius': '4px' });
    expect(Object.keys(themeToCssVariables(defaultTheme)).sort()).toEqual(['--gh-background', '--gh-font', '--gh-primary', '--gh-radius', '--gh-text']);
  });

  it('drops values that could inject CSS', () => {
    expect(themeToCssVariables({ primaryColor: 'red; } body { display:none', backgroundColor: 'url(https://evil/x.png)', textColor: '</style>' })).toEqual({});
  });

  it('resolves metadata over the defaults, in both shapes', () => {
    expect(resolveTheme(null)).toEqual(defaultTheme);
    expect(resolveTheme({ theme: { primaryColor: '#123456' } }).primaryColor).toBe('#123456');
    const palette = resolveTheme({ theme: { palette: { primary: { main: '#abcdef' } }, shape: { borderRadius: 6 } } });
    expect(palette.primaryColor).toBe('#abcdef');
    expect(palette.borderRadius).toBe('6px');
    expect(palette.textColor).toBe(defaultTheme.textColor);
  });

  it('applies to an element style', () => {
    const set: Record<string, string> = {};
    applyThemeToElement({ style: { setProperty: (n, v) => void (set[n] = v) } }, { primaryColor: '#000' });
    expect(set).toEqual({ '--gh-primary': '#000' });
  });
});
