/** The email catalogs, one per supported locale (SUPPORTED_LOCALES of @gatehouse/shared/i18n). */
import type { Locale } from '@gatehouse/shared/i18n';
import { de } from './de';
import { en, type EmailMessageKey } from './en';
import { es } from './es';
import { he } from './he';

/** A translation: every key of the English catalog. */
export type EmailCatalog = Readonly<Record<EmailMessageKey, string>>;

export const EMAIL_CATALOGS: Readonly<Record<Locale, EmailCatalog>> = { en, de, es, he };
export type { EmailMessageKey };
