/** Placeholders shaped like what is loading, so the portal opens at once and never shows bare "Loading…" text. */

/** Grey bars in the shape of a section: title, a toolbar, and table-like rows. */
export function SectionSkeleton({ label }: { label: string }) {
  return (
    <div className="gh-ap-skeleton" aria-busy="true">
      {/* Screen readers hear what is loading; sighted users see its shape. */}
      <p className="gh-ap-visually-hidden" role="status">{label}</p>
      <div className="gh-ap-skeleton-bar gh-ap-skeleton-title" />
      <div className="gh-ap-skeleton-bar gh-ap-skeleton-tool" />
      {[0, 1, 2, 3, 4].map((row) => (
        <div key={row} className="gh-ap-skeleton-row">
          <div className="gh-ap-skeleton-dot" />
          <div className="gh-ap-skeleton-bar" />
          <div className="gh-ap-skeleton-bar gh-ap-skeleton-short" />
        </div>
      ))}
    </div>
  );
}

/** The portal's frame before its own language is loaded: no text yet, only the shape. */
export function ShellSkeleton({ dir, lang }: { dir: 'ltr' | 'rtl'; lang: string }) {
  return (
    <div className="gh-ap" dir={dir} lang={lang}>
      <div className="gh-ap-dialog" aria-busy="true">
        <div className="gh-ap-header">
          <div className="gh-ap-skeleton-bar gh-ap-skeleton-heading" />
        </div>
        <div className="gh-ap-body">
          <div className="gh-ap-nav gh-ap-nav-skeleton">
            {[0, 1, 2, 3].map((row) => <div key={row} className="gh-ap-skeleton-bar" />)}
          </div>
          <div className="gh-ap-content">
            <div className="gh-ap-skeleton" aria-hidden="true">
              <div className="gh-ap-skeleton-bar gh-ap-skeleton-title" />
              <div className="gh-ap-skeleton-bar gh-ap-skeleton-tool" />
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
