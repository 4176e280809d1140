/**
 * Component tests render sections without the shell that loads their catalogs: every English
 * catalog is put in up front, as the shell would before showing a section.
 */
import type { Messages } from '../contract';
import type { Namespace } from '../i18n/namespaces';
import { registerMessages } from '../i18n/registry';

const english = import.meta.glob<Messages>('../i18n/en/*.ts', { eager: true, import: 'default' });
for (const [path, messages] of Object.entries(english)) {
  registerMessages('en', path.replace(/^.*\/(\w+)\.ts$/, '$1') as Namespace, messages);
}
