import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { adoptCss } from '../host-styles';
import css from './tabs.css?inline';

export interface TabItem<T extends string> {
  id: T;
  label: string;
}

/**
 * A WAI-ARIA tablist (shared by the sections with tabs) (automatic activation): Left/Right arrows move to the previous/next tab and
 * wrap, Home/End to the first/last; only the selected tab is in the Tab order.
 */
export function Tabs<T extends string>({ label, tabs, selected, onSelect, idPrefix }: { label: string; tabs: readonly TabItem<T>[]; selected: T; onSelect: (id: T) => void; idPrefix: string }) {
  const refs = useRef(new Map<T, HTMLButtonElement | null>());
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => (listRef.current ? adoptCss(listRef.current, css) : undefined), []);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = tabs.length - 1;
    const next = event.key === 'ArrowRight' ? (index === last ? 0 : index + 1) : event.key === 'ArrowLeft' ? (index === 0 ? last : index - 1) : event.key === 'Home' ? 0 : event.key === 'End' ? last : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next]!;
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  }

  return (
    <div ref={listRef} className="gh-ap-tabs" role="tablist" aria-label={label}>
      {tabs.map((tab, index) => (
        <button
          key={tab.id}
          ref={(node) => {
            refs.current.set(tab.id, node);
          }}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${tab.id}`}
          className="gh-ap-tab"
          aria-selected={tab.id === selected}
          aria-controls={`${idPrefix}-panel-${tab.id}`}
          tabIndex={tab.id === selected ? 0 : -1}
          onClick={() => onSelect(tab.id)}
          onKeyDown={(event) => onKeyDown(event, index)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** The panel of one tab; kept mounted while hidden so unsaved edits survive switching tabs. */
export function TabPanel({ idPrefix, id, selected, children }: { idPrefix: string; id: string; selected: boolean; children: ReactNode }) {
  return (
    <div role="tabpanel" id={`${idPrefix}-panel-${id}`} aria-labelledby={`${idPrefix}-tab-${id}`} hidden={!selected} tabIndex={0} className="gh-ap-tabpanel">
      {children}
    </div>
  );
}
