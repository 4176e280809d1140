import { useT } from '../../i18n/i18n-context';
import type { EventCatalogueEntry } from './connectivity-types';
import { categoryLabel } from './event-catalogue';

/** "Add an event": a select of the catalogue's events not configured yet, grouped by category, and Add. */
export function AddEventRow({ id, choices, picked, onPick, onAdd, busy = false }: {
  id: string;
  /** The events still to choose from, by category (groupByCategory). */
  choices: [string, EventCatalogueEntry[]][];
  picked: string;
  onPick: (eventKey: string) => void;
  onAdd: () => void;
  busy?: boolean;
}) {
  const t = useT();
  return (
    <div className="gh-ap-cx-add-event">
      <div className="gh-ap-field">
        <label className="gh-ap-label" htmlFor={id}>{t.t('connectivity.channel.addEvent')}</label>
        <select id={id} className="gh-ap-select" value={picked} onChange={(e) => onPick(e.target.value)}>
          <option value="">{t.t('connectivity.channel.chooseEvent')}</option>
          {choices.map(([category, entries]) => (
            <optgroup key={category} label={categoryLabel(t, category)}>
              {entries.map((entry) => <option key={entry.key} value={entry.key}>{entry.key}</option>)}
            </optgroup>
          ))}
        </select>
      </div>
      <button type="button" className="gh-ap-button-secondary" disabled={!picked || busy} onClick={onAdd}>{t.t('connectivity.channel.add')}</button>
    </div>
  );
}
