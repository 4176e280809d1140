import { useT } from '../../i18n/i18n-context';

/** A card form's Save button, with a spinner while this card saves; other actions of the card only disable it. */
export function SaveActions({ busy, saving }: { busy: boolean; saving: boolean }) {
  const t = useT();
  return (
    <div className="gh-ap-actions">
      <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={saving}>
        {saving && <span className="gh-ap-spinner" aria-hidden="true" />}
        {t.t('common.save')}
      </button>
    </div>
  );
}
