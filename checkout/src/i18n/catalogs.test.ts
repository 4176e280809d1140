import { describe, expect, it } from 'vitest';
import { checkCatalogs } from '../../../shared/src/i18n/catalog-check';
import { SUPPORTED_LOCALES } from '@gatehouse/shared';
import { catalogs, checkoutTranslator } from './catalogs';

describe('checkout catalogs', () => {
  it('have every English key, with the same arguments, in every supported language', () => {
    const { en, ...others } = catalogs;
    expect(Object.keys(catalogs).sort()).toEqual([...SUPPORTED_LOCALES].sort());
    expect(checkCatalogs(en, others)).toEqual([]);
  });

  it('keep the seed generic error verbatim in English and plural trial days per language', () => {
    expect(checkoutTranslator('en').t('checkout.genericError')).toBe("We're facing some difficulties, Please try again");
    expect(checkoutTranslator('en').t('checkout.trial', { days: 1 })).toBe('1 day free trial');
    expect(checkoutTranslator('de').t('checkout.trial', { days: 14 })).toBe('14 Tage kostenlos testen');
    expect(checkoutTranslator('he').dir).toBe('rtl');
  });
});
