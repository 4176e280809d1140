/**
 * What every later step or screen needs beyond its own code, in one chunk (lazy-step.ts): the rest
 * of the English catalog, the rest of the stylesheet, and the wording of server errors.
 */
export { en } from './i18n/en';
export { default as laterCss } from './styles-later.css?inline';
export { describeError } from './components/server-errors';
