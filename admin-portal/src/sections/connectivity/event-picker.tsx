import { useId, useMemo, useState } from 'react';
import { useT } from '../../i18n/i18n-context';
import type { EventCatalogueEntry, EventCategory } from './connectivity-types';
import { categoryLabel, groupByCategory } from './event-catalogue';

/**
 * The events an endpoint subscribes to: the catalogue grouped by category, a checkbox per event
 * (its key and description), a filter box over keys and descriptions, and a box per category that
 * ticks or clears the whole category. Filtering hides events, never unticks them.
 */
export function EventPicker({ catalogue, selected, onChange, disabled, problem }: {
  catalogue: readonly EventCatalogueEntry[];
  selected: readonly string[];
  onChange: (keys: string[]) => void;
  disabled: boolean;
  problem?: string;
}) {
  const t = useT();
  const id = useId();
  const [filter, setFilter] = useState('');
  const chosen = useMemo(() => new Set(selected), [selected]);
  const words = filter.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const matches = (entry: EventCatalogueEntry) => {
    const hay = `${entry.key} ${entry.key.replace(/[._]/g, ' ')} ${entry.description} ${categoryLabel(t, entry.category)}`.toLocaleLowerCase();
    return words.every((word) => hay.includes(word));
  };
  const groups = groupByCategory(catalogue.filter(matches));
  // Keeps the catalogue's order, whatever order the boxes were ticked in.
  const ordered = (keys: Set<string>) => catalogue.map((entry) => entry.key as string).filter((key) => keys.has(key));

  function toggle(key: string, on: boolean) {
    const next = new Set(chosen);
    if (on) next.add(key);
    else next.delete(key);
    onChange(ordered(next));
  }
  function toggleCategory(entries: readonly EventCatalogueEntry[], on: boolean) {
    const next = new Set(chosen);
    for (const entry of entries) (on ? next.add(entry.key) : next.delete(entry.key));
    onChange(ordered(next));
  }

  return (
    <fieldset className="gh-ap-fieldset gh-ap-cx-events" aria-describedby={problem ? `${id}-error` : `${id}-count`} aria-invalid={problem ? true : undefined}>
      <legend className="gh-ap-label">{t.t('connectivity.events.legend')}</legend>
      <div className="gh-ap-field">
        <label className="gh-ap-visually-hidden" htmlFor={`${id}-filter`}>{t.t('connectivity.events.filter')}</label>
        <input id={`${id}-filter`} className="gh-ap-input" type="search" value={filter} placeholder={t.t('connectivity.events.filter')} autoComplete="off" spellCheck={false} onChange={(e) => setFilter(e.target.value)} />
      </div>
      <p id={`${id}-count`} className="gh-ap-hint" aria-live="polite">{t.t('connectivity.events.count', { count: chosen.size })}</p>
      {problem && <p id={`${id}-error`} className="gh-ap-field-error" role="alert">{problem}</p>}
      <div className="gh-ap-cx-event-groups">
        {groups.length === 0 && <p className="gh-ap-hint">{t.t('connectivity.events.noMatch')}</p>}
        {groups.map(([category, entries]) => {
          // The category's box speaks for the whole category, whatever the filter shows of it.
          const whole = catalogue.filter((entry) => entry.category === category);
          const ticked = whole.filter((entry) => chosen.has(entry.key)).length;
          return (
            <fieldset key={category} className="gh-ap-fieldset gh-ap-cx-event-group">
              <legend className="gh-ap-cx-category">
                <label className="gh-ap-check">
                  <input
                    type="checkbox"
                    checked={ticked === whole.length}
                    ref={(node) => {
                      if (node) node.indeterminate = ticked > 0 && ticked < whole.length;
                    }}
                    disabled={disabled}
                    onChange={(e) => toggleCategory(whole, e.target.checked)}
                  />
                  <span>{t.t('connectivity.events.category', { category: categoryLabel(t, category as EventCategory) })}</span>
                </label>
              </legend>
              {entries.map((entry) => (
                <label key={entry.key} className="gh-ap-check gh-ap-cx-event">
                  <input type="checkbox" checked={chosen.has(entry.key)} disabled={disabled} onChange={(e) => toggle(entry.key, e.target.checked)} />
                  <span>
                    <code className="gh-ap-mono" dir="ltr">{entry.key}</code>
                    <span className="gh-ap-hint gh-ap-cx-event-text">{entry.description}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          );
        })}
      </div>
    </fieldset>
  );
}
