import { useId } from 'react';
import type { ScimSource } from '@gatehouse/shared/admin-paths';
import { useT } from '../../i18n/i18n-context';
import { CopyField } from '../api-tokens/token-created-dialog';
import { ATTRIBUTE_MAP, SETUP_STEPS, SOURCE_LABELS } from './sources';

/**
 * How to connect an identity provider to a connection: the SCIM base URL to paste (with a copy
 * button), the provider's own steps (where the URL and the token go, what to turn on), and the
 * attributes to map. Shown with a new token, and again from a connection's menu.
 */
export function SetupInstructions({ source, baseUrl }: { source: ScimSource; baseUrl: string }) {
  const t = useT();
  const id = useId();
  const provider = t.t(SOURCE_LABELS[source].name);
  return (
    <div className="gh-ap-scim-setup">
      <CopyField label={t.t('provisioning.baseUrl')} copyLabel={t.t('provisioning.copyBaseUrl')} value={baseUrl} />
      <section aria-labelledby={`${id}-steps`}>
        <h4 id={`${id}-steps`} className="gh-ap-scim-subtitle">{t.t('provisioning.steps.title', { provider })}</h4>
        <ol className="gh-ap-scim-steps">
          {SETUP_STEPS[source].map((key) => (
            <li key={key}>{t.t(key, { baseUrl })}</li>
          ))}
        </ol>
      </section>
      <section aria-labelledby={`${id}-attributes`}>
        <h4 id={`${id}-attributes`} className="gh-ap-scim-subtitle">{t.t('provisioning.attributes.title')}</h4>
        <dl className="gh-ap-scim-attributes">
          {ATTRIBUTE_MAP.map((row) => (
            <div key={row.scim}>
              <dt><code dir="ltr">{row.scim}</code></dt>
              <dd>{t.t(row.meaning)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
