import { SecurityCategories } from '@gatehouse/shared/admin-paths';
import type { Insight } from '@gatehouse/shared/wire';
import { DEFAULT_LOCALE } from '../../contract';
import { useT } from '../../i18n/i18n-context';

/** The security center's insights, grouped by category in the contract's order (major version 2). */
export function Insights({ items }: { items: readonly Insight[] }) {
  const t = useT();
  if (items.length === 0) return <p className="gh-ap-sc-empty">{t.t('securityCenter.insights.none')}</p>;
  const english = t.locale === DEFAULT_LOCALE;
  const groups = SecurityCategories.map((category) => ({ category, items: items.filter((item) => item.category === category) })).filter((group) => group.items.length > 0);
  return (
    <div className="gh-ap-sc-insights">
      {groups.map((group) => (
        <section key={group.category} className="gh-ap-sc-insight-group" aria-label={t.t(`securityCenter.category.${group.category}`)}>
          <h4 className="gh-ap-sc-insight-category">{t.t(`securityCenter.category.${group.category}`)}</h4>
          <ul className="gh-ap-sc-insight-list">
            {group.items.map((item) => (
              <li key={item.code} className="gh-ap-sc-insight">
                <p className="gh-ap-sc-insight-title">{t.t(`securityCenter.insight.${item.code}`)}</p>
                <p className="gh-ap-hint" lang={english ? undefined : 'en'} dir={english ? undefined : 'auto'}>{item.description}</p>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
