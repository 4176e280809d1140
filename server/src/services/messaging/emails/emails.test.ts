import { checkCatalogs, SUPPORTED_LOCALES } from '@gatehouse/shared/i18n';
import { describe, expect, it } from 'vitest';
import { senderOf } from '../mail';
import { emailLocale, renderTemplate } from './email-service';
import { EMAIL_CATALOGS } from './messages';
import { en } from './messages/en';
import { EMAIL_SAMPLES, EMAIL_TEMPLATES, lifetimeOf, type EmailTemplateName } from './templates';

const TEMPLATES = Object.keys(EMAIL_TEMPLATES) as EmailTemplateName[];
const BRAND = { name: 'Acme <Rockets>', logoUrl: 'https://cdn.example.com/logo.png?a=1&b=2', color: '#ff8800' };

describe('emails: one template per message and language', () => {
  it('every language has every key of the English catalog, with the same ICU arguments', () => {
    const { en: english, ...translations } = EMAIL_CATALOGS;
    expect(english).toBe(en);
    expect(Object.keys(EMAIL_CATALOGS).sort()).toEqual([...SUPPORTED_LOCALES].sort());
    expect(checkCatalogs(english, translations)).toEqual([]);
  });

  it('a translation that lacks a key is reported (the check above would fail)', () => {
    const { 'activation.subject': _dropped, ...incomplete } = EMAIL_CATALOGS.de;
    expect(checkCatalogs(en, { de: incomplete })).toEqual([{ locale: 'de', key: 'activation.subject', problem: 'missing' }]);
  });

  it.each(SUPPORTED_LOCALES.flatMap((locale) => TEMPLATES.map((template) => [locale, template] as const)))('%s %s: HTML and text, in the tenant name, greeting the user by name', (locale, template) => {
    const mail = renderTemplate(template, EMAIL_SAMPLES[template] as never, { to: 'ada@example.com', name: 'Ada "<b>"', brand: BRAND, locale });
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toContain(BRAND.name);
    // The text version: tenant name, greeting with the name, footer; no markup.
    expect(mail.text).toContain('Ada "<b>"');
    expect(mail.text.startsWith(BRAND.name)).toBe(true);
    // The HTML version escapes every value: names, tenant names and links are hostile input.
    expect(mail.html).toContain('Ada &quot;&lt;b&gt;&quot;');
    expect(mail.html).toContain('Acme &lt;Rockets&gt;');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('<Rockets>');
    expect(mail.html).toContain('src="https://cdn.example.com/logo.png?a=1&amp;b=2"');
    expect(mail.html).toContain('#ff8800');
    expect(mail.html).toContain(`lang="${locale}" dir="${locale === 'he' ? 'rtl' : 'ltr'}"`);
    // No message key leaks through untranslated.
    expect(mail.subject + mail.text).not.toMatch(/\b[a-z]+[A-Z]?[a-zA-Z]*\.(subject|heading|body|button|code|ignore|note)\b/);
    const data = EMAIL_SAMPLES[template] as { link?: string; code?: string | null };
    if (data.link) {
      expect(mail.text).toContain(data.link);
      expect(mail.html).toContain(`href="${data.link.replace(/&/g, '&amp;')}"`);
    }
    if (data.code) {
      expect(mail.text).toContain(data.code);
      expect(mail.html).toContain(`>${data.code}<`);
    }
  });

  it('the messages differ by language (German, Spanish and Hebrew are not English)', () => {
    const subjects = SUPPORTED_LOCALES.map((locale) => renderTemplate('passwordReset', EMAIL_SAMPLES.passwordReset, { to: 'a@example.com', name: 'Ada', brand: BRAND, locale }).subject);
    expect(new Set(subjects).size).toBe(SUPPORTED_LOCALES.length);
  });

  it('plurals follow the language: one hour, 24 hours, 3 Tage', () => {
    const render = (locale: 'en' | 'de', hours: number) => renderTemplate('unlock', { link: 'https://a.example/u', lifetime: { hours } }, { to: 'a@example.com', name: 'Ada', brand: BRAND, locale }).text;
    expect(render('en', 1)).toContain('within 1 hour.');
    expect(render('en', 24)).toContain('within 24 hours.');
    expect(renderTemplate('invitation', { ...EMAIL_SAMPLES.invitation, lifetime: { days: 3 } }, { to: 'a@example.com', name: 'Ada', brand: BRAND, locale: 'de' }).text).toContain('3 Tage');
  });

  it('a logo or link that is not http(s) and a colour that is not #rrggbb never reach the HTML', () => {
    const mail = renderTemplate('magicLink', { link: 'javascript:alert(1)', lifetime: { minutes: 15 } }, { to: 'a@example.com', name: 'Ada', brand: { name: 'T', logoUrl: 'javascript:x', color: 'red;background:url(x)' }, locale: 'en' });
    expect(mail.html).not.toContain('javascript:');
    expect(mail.html).not.toContain('url(x)');
    expect(mail.html).toContain('#4f46e5');
  });

  it("the sender name is the tenant's, with MAIL_FROM's address; a name cannot inject a header", () => {
    const mail = renderTemplate('mfaCode', EMAIL_SAMPLES.mfaCode, { to: 'a@example.com', name: 'Ada', brand: BRAND, locale: 'en' });
    expect(mail.fromName).toBe(BRAND.name);
    expect(senderOf('Gatehouse <no-reply@example.com>', mail.fromName)).toEqual({ name: 'Acme Rockets', address: 'no-reply@example.com' });
    expect(senderOf('no-reply@example.com', 'Evil\r\nBcc: x@evil.test')).toEqual({ name: 'Evil Bcc: x@evil.test', address: 'no-reply@example.com' });
    expect(senderOf('Gatehouse <no-reply@example.com>', undefined)).toBe('Gatehouse <no-reply@example.com>');
  });

  it("the language: the user's stored locale, else the request's, else English", () => {
    expect(emailLocale('de', 'es')).toBe('de');
    expect(emailLocale(null, 'he-IL')).toBe('he');
    expect(emailLocale('xx', undefined)).toBe('en');
    expect(lifetimeOf(1800)).toEqual({ minutes: 30 });
    expect(lifetimeOf(86_400 * 3)).toEqual({ days: 3 });
  });
});
