/**
 * The words of the page the ACS answers to a SAML connection test's IdP post (the admin's sign-in
 * window), in the languages the login box and the admin portal speak; the OIDC test's page is the
 * login box's own and is translated there.
 */
import { directionOf, supportedLocale, type Locale } from '@gatehouse/shared';

export interface TestPageCopy {
  completeTitle: string;
  complete: string;
  invalidTitle: string;
  invalid: string;
}

const COPY: Record<Locale, TestPageCopy> = {
  en: {
    completeTitle: 'Test complete',
    complete: 'Test complete — you can close this window and return to the admin portal to see the report.',
    invalidTitle: 'Test no longer valid',
    invalid: 'This connection test was already answered or has expired. Start a new test from the admin portal.',
  },
  de: {
    completeTitle: 'Test abgeschlossen',
    complete: 'Test abgeschlossen – Sie können dieses Fenster schließen und im Admin-Portal den Bericht ansehen.',
    invalidTitle: 'Test nicht mehr gültig',
    invalid: 'Dieser Verbindungstest wurde bereits beantwortet oder ist abgelaufen. Starten Sie im Admin-Portal einen neuen Test.',
  },
  es: {
    completeTitle: 'Prueba completada',
    complete: 'Prueba completada: puede cerrar esta ventana y volver al portal de administración para ver el informe.',
    invalidTitle: 'La prueba ya no es válida',
    invalid: 'Esta prueba de conexión ya se respondió o ha caducado. Inicie una nueva prueba desde el portal de administración.',
  },
  he: {
    completeTitle: 'הבדיקה הושלמה',
    complete: 'הבדיקה הושלמה — אפשר לסגור את החלון הזה ולחזור לפורטל הניהול כדי לראות את הדוח.',
    invalidTitle: 'הבדיקה כבר אינה תקפה',
    invalid: 'בדיקת החיבור הזו כבר נענתה או שפג תוקפה. התחילו בדיקה חדשה מפורטל הניהול.',
  },
};

/** The page's words, language and direction for a supported locale (`he-IL` is `he`); English otherwise. */
export function testPageCopy(locale: string | undefined): TestPageCopy & { lang: Locale; dir: 'ltr' | 'rtl' } {
  const lang: Locale = supportedLocale(locale) ?? 'en';
  return { ...COPY[lang], lang, dir: directionOf(lang) };
}
