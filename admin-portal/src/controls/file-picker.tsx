import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { adoptCss } from '../host-styles';
import { useT } from '../i18n/i18n-context';
import css from './file-picker.css?inline';

/**
 * A file picker people recognise: the current image (or a placeholder) beside a "Choose a file"
 * area that also takes a dropped file. The real `<input type="file">` stays in the page (focusable,
 * named by `label`, described by `hint` and the error) so keyboards, screen readers and tests use it
 * as they would any file input; the area around it only forwards clicks and drops to it.
 */
export function FilePicker({ id, label, hint, accept, preview, disabled = false, error, inputRef, onFile, onRemove, removeLabel }: {
  id: string;
  label: string;
  hint: string;
  accept: string;
  /** The image shown: the current one, the picked one, or a placeholder. */
  preview: ReactNode;
  disabled?: boolean;
  error?: string | null;
  inputRef?: RefObject<HTMLInputElement>;
  onFile: (file: File | null) => void;
  /** When given, a button to drop the current or picked image. */
  onRemove?: () => void;
  removeLabel?: string;
}) {
  const t = useT();
  const own = useRef<HTMLInputElement>(null);
  const input = inputRef ?? own;
  const rootRef = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const [chosen, setChosen] = useState<string | null>(null);

  useEffect(() => (rootRef.current ? adoptCss(rootRef.current, css) : undefined), []);

  const take = (file: File | null) => {
    setChosen(file?.name ?? null);
    onFile(file);
  };

  return (
    <div ref={rootRef} className="gh-ap-field gh-ap-filepicker">
      <label className="gh-ap-label" htmlFor={id}>{label}</label>
      <div className="gh-ap-filepicker-body">
        <div className="gh-ap-filepicker-preview">{preview}</div>
        <div
          className="gh-ap-dropzone"
          data-dragging={dragging ? 'true' : undefined}
          data-disabled={disabled ? 'true' : undefined}
          onClick={(event) => {
            if (!disabled && event.target !== input.current) input.current?.click();
          }}
          onDragOver={(event) => {
            if (disabled) return;
            event.preventDefault();
            event.dataTransfer.dropEffect = 'copy';
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            if (!disabled) take(event.dataTransfer.files?.[0] ?? null);
          }}
        >
          <input
            ref={input}
            id={id}
            className="gh-ap-dropzone-input"
            type="file"
            accept={accept}
            disabled={disabled}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            aria-invalid={error ? true : undefined}
            onChange={(event) => take(event.target.files?.[0] ?? null)}
          />
          <svg className="gh-ap-dropzone-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 16V4m0 0l-4 4m4-4l4 4M4 16v3a1 1 0 001 1h14a1 1 0 001-1v-3" /></svg>
          <span className="gh-ap-dropzone-text" aria-hidden="true">
            <strong>{t.t(chosen ? 'common.filePicker.replace' : 'common.filePicker.choose')}</strong> {t.t('common.filePicker.drop')}
          </span>
          {chosen && <span className="gh-ap-dropzone-chosen">{t.t('common.filePicker.chosen', { name: chosen })}</span>}
        </div>
      </div>
      <p id={`${id}-hint`} className="gh-ap-hint">{hint}</p>
      {error && <p id={`${id}-error`} className="gh-ap-field-error" role="alert">{error}</p>}
      {onRemove && (
        <div>
          <button
            type="button"
            className="gh-ap-button-secondary"
            disabled={disabled}
            onClick={() => {
              setChosen(null);
              if (input.current) input.current.value = '';
              onRemove();
            }}
          >
            {removeLabel ?? t.t('common.filePicker.remove')}
          </button>
        </div>
      )}
    </div>
  );
}
