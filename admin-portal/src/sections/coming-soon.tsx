import { useT } from '../i18n/i18n-context';
import type { SectionProps } from './section-props';

/** Empty state for sections this version does not implement yet. Shows no data, real or fake. */
export function ComingSoon({ title, headingId }: Pick<SectionProps, 'title' | 'headingId'>) {
  const t = useT();
  return (
    <section className="gh-ap-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
      <div className="gh-ap-empty">
        <svg className="gh-ap-empty-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 7v5l3 2" />
          <circle cx="12" cy="12" r="9" />
        </svg>
        <p className="gh-ap-empty-title">{t.t('shell.comingSoon.title')}</p>
        <p className="gh-ap-empty-text">{t.t('shell.comingSoon.text', { section: title })}</p>
      </div>
    </section>
  );
}
