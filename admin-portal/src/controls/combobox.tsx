import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { adoptCss } from '../host-styles';
import { useT } from '../i18n/i18n-context';
import css from './combobox.css?inline';

export interface ComboboxOption {
  value: string;
  label: string;
}

/** At most this many matches are drawn; typing narrows the rest. */
const SHOWN = 80;

/** Options whose label or value contains every word typed, best (label starts with it) first. */
export function filterOptions(options: readonly ComboboxOption[], query: string): ComboboxOption[] {
  const words = query.trim().toLocaleLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...options];
  const hay = (o: ComboboxOption) => `${o.label} ${o.value} ${o.value.replace(/_/g, ' ')}`.toLocaleLowerCase();
  const matches = options.filter((o) => words.every((w) => hay(o).includes(w)));
  const first = words[0]!;
  return [...matches.filter((o) => o.label.toLocaleLowerCase().startsWith(first)), ...matches.filter((o) => !o.label.toLocaleLowerCase().startsWith(first))];
}

/**
 * A searchable picker, the ARIA 1.2 combobox pattern (editable, list autocomplete): type to narrow
 * the list; Down and Up move through it (Alt+Down opens it), Enter takes the active option, Escape
 * closes the list (a second Escape restores the chosen label), Home and End move in the text. The
 * active option is announced through aria-activedescendant; focus stays in the input. Leaving the
 * field without choosing keeps the value it had.
 */
export function Combobox({ id, label, value, options, onChange, disabled = false, describedBy, invalid = false }: {
  id: string;
  label: string;
  value: string;
  options: readonly ComboboxOption[];
  onChange: (value: string) => void;
  disabled?: boolean;
  describedBy?: string;
  invalid?: boolean;
}) {
  const t = useT();
  const chosenLabel = options.find((o) => o.value === value)?.label ?? value;
  const [text, setText] = useState(chosenLabel);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [typed, setTyped] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const listId = `${useId()}-list`;

  useEffect(() => (rootRef.current ? adoptCss(rootRef.current, css) : undefined), []);
  // A new value from outside (a save, a reload) shows when the field is not being edited.
  useEffect(() => {
    if (!open) setText(chosenLabel);
  }, [chosenLabel, open]);

  const matches = useMemo(() => (typed ? filterOptions(options, text) : [...options]), [options, text, typed]);
  const shown = matches.slice(0, SHOWN);

  // Opened on the chosen option; keep the active option in view.
  useEffect(() => {
    if (!open) return;
    listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active]);

  function openList() {
    if (disabled) return;
    setOpen(true);
    setActive(Math.max(0, shown.findIndex((o) => o.value === value)));
  }

  function choose(option: ComboboxOption) {
    onChange(option.value);
    setText(option.label);
    setTyped(false);
    setOpen(false);
  }

  function close(restore: boolean) {
    setOpen(false);
    setTyped(false);
    if (restore) setText(chosenLabel);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) openList();
      else if (!event.altKey) setActive((i) => Math.min(shown.length - 1, i + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) openList();
      else setActive((i) => Math.max(0, i - 1));
    } else if (event.key === 'Enter') {
      if (open && shown[active]) {
        event.preventDefault();
        choose(shown[active]!);
      }
    } else if (event.key === 'Escape') {
      // Handled here: neither the portal nor a dialog behind may close.
      event.preventDefault();
      event.stopPropagation();
      close(!open);
    } else if (event.key === 'Tab') {
      close(true);
    }
  }

  return (
    <div ref={rootRef} className="gh-ap-combobox">
      <input
        id={id}
        className="gh-ap-input gh-ap-combobox-input"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && shown[active] ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setTyped(true);
          setOpen(true);
          setActive(0);
        }}
        onClick={() => (open ? close(true) : openList())}
        onKeyDown={onKeyDown}
        onBlur={(event) => {
          // A press on an option keeps focus here (mousedown is prevented), so any blur leaves the field.
          if (!rootRef.current?.contains(event.relatedTarget as Node | null)) close(true);
        }}
      />
      <svg className="gh-ap-combobox-chevron" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 9l6 6 6-6" /></svg>
      <ul ref={listRef} id={listId} className="gh-ap-combobox-list" role="listbox" aria-label={label} hidden={!open}>
        {open &&
          shown.map((option, index) => (
            <li
              key={option.value}
              id={`${listId}-${index}`}
              data-index={index}
              role="option"
              aria-selected={option.value === value}
              className={index === active ? 'gh-ap-combobox-option gh-ap-combobox-active' : 'gh-ap-combobox-option'}
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => setActive(index)}
              onClick={() => choose(option)}
            >
              {option.label}
            </li>
          ))}
        {open && shown.length === 0 && <li className="gh-ap-combobox-empty" role="presentation">{t.t('common.combobox.noMatch', { query: text.trim() })}</li>}
      </ul>
      <p className="gh-ap-visually-hidden" role="status" aria-live="polite">{open && typed ? t.t('common.combobox.count', { count: matches.length }) : ''}</p>
    </div>
  );
}
