/** One i18n layer for the login box, the admin portal and the server's emails. */
export { formatMessage, parseMessage, argumentsOf, MessageSyntaxError, type MessageValue, type MessageValues } from './message-format';
export { SUPPORTED_LOCALES, DEFAULT_LOCALE, supportedLocale, resolveLocale, directionOf, type Locale } from './locale';
export { createTranslator, type Messages, type Translator } from './translator';
export { checkCatalogs, type CatalogProblem } from './catalog-check';
