/**
 * What every later step or screen needs beyond its own code, in one chunk (lazy-step.ts): the rest
 * of the English catalog and the rest of the stylesheet.
 */
export { en } from './i18n/en';
export { default as laterCss } from './styles-later.css?inline';
