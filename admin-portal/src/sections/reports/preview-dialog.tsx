import { useCallback, useState } from 'react';
import { REPORT_DOWNLOAD_TYPES, type ReportDownloadType, type ReportTemplateId } from '@gatehouse/shared/admin-paths';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { Modal } from '../users/modal';
import type { ReportsApi } from './reports-api';

/**
 * The report's HTML for the frame, and its stylesheet apart: a srcdoc frame inherits the host page's
 * CSP, which may refuse an inline <style> (and log it), so the style element is cut out and the
 * frame gets the CSS as a constructed stylesheet instead. Cut as text, not parsed (a parsed
 * document inherits the CSP too): the server escapes every `<` of the report's values, so the only
 * style elements are its own.
 */
export function splitReportStyles(html: string): { html: string; css: string } {
  const css: string[] = [];
  const rest = html.replace(/<style>([\s\S]*?)<\/style>/g, (_, text: string) => {
    css.push(text);
    return '';
  });
  return { html: rest, css: css.join('\n') };
}

/**
 * Applies `css` to the frame's document as a constructed stylesheet (not governed by style-src).
 * The frame may be reached because it is sandboxed with allow-same-origin only: no script ever runs in it.
 */
export function adoptReportStyles(frame: HTMLIFrameElement, css: string): void {
  const doc = frame.contentDocument;
  const view = frame.contentWindow as (Window & { CSSStyleSheet?: typeof CSSStyleSheet }) | null;
  if (!doc || !view?.CSSStyleSheet || !css || !('replaceSync' in view.CSSStyleSheet.prototype)) return;
  const sheet = new view.CSSStyleSheet();
  sheet.replaceSync(css);
  doc.adoptedStyleSheets = [sheet];
}

/** Saves a downloaded report under `fileName` (the browser's download). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The file name a download is saved under: the report's name made safe, the day, the type. */
export function downloadName(name: string, type: ReportDownloadType, now = Date.now()): string {
  const base = name.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).toLowerCase() || 'report';
  return `${base}-${new Date(now).toISOString().slice(0, 10)}.${type}`;
}

/**
 * A report rendered now: its HTML in a sandboxed frame (no scripts; the report's own CSP holds inside
 * it too), and, for a saved report, its downloads as HTML, PDF and JPG.
 */
export function PreviewDialog({ title, templateId, dataFilters, saved, reports, onClose }: {
  title: string;
  templateId: ReportTemplateId;
  dataFilters: Record<string, unknown>;
  /** The saved report whose downloads are offered; null for a template's preview. */
  saved: { id: string; name: string } | null;
  reports: ReportsApi;
  onClose: () => void;
}) {
  const t = useT();
  const toError = useErrorText();
  const fetch = useCallback(async () => splitReportStyles(await reports.previewHtml(templateId, dataFilters, title)), [reports, templateId, dataFilters, title]);
  const { data: report, error, reload } = useLatestLoad(fetch, toError);
  const [downloading, setDownloading] = useState<ReportDownloadType | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);

  async function download(type: ReportDownloadType) {
    if (!saved) return;
    setDownloading(type);
    setDownloadError(null);
    try {
      saveFile(await reports.download(saved.id, type), downloadName(saved.name, type));
    } catch (thrown) {
      setDownloadError(toError(thrown));
    } finally {
      setDownloading(null);
    }
  }

  return (
    <Modal title={title} onClose={onClose}>
      <div className="gh-ap-report-preview-wrap" aria-busy={report === null && !error}>
        {error && (
          <div className="gh-ap-report-stack">
            <p className="gh-ap-banner gh-ap-banner-error" role="alert">{t.t('reports.preview.failed')} {error}</p>
            <div><button type="button" className="gh-ap-button-secondary" onClick={() => void reload()}>{t.t('common.tryAgain')}</button></div>
          </div>
        )}
        {report === null && !error && (
          <div className="gh-ap-skeleton" aria-busy="true">
            <p className="gh-ap-visually-hidden" role="status">{t.t('reports.preview.loading')}</p>
            <div className="gh-ap-skeleton-bar gh-ap-skeleton-heading" />
            <div className="gh-ap-skeleton-bar" />
            <div className="gh-ap-skeleton-bar gh-ap-skeleton-short" />
          </div>
        )}
        {report !== null && (
          <iframe className="gh-ap-report-preview" title={t.t('reports.preview.frameTitle', { name: title })} sandbox="allow-same-origin" srcDoc={report.html} referrerPolicy="no-referrer" onLoad={(e) => adoptReportStyles(e.currentTarget, report.css)} />
        )}
      </div>
      {downloadError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{downloadError}</p>}
      <div className="gh-ap-modal-actions gh-ap-report-actions">
        {saved && REPORT_DOWNLOAD_TYPES.map((type) => (
          <button key={type} type="button" className="gh-ap-button-secondary" disabled={downloading !== null} aria-busy={downloading === type} onClick={() => void download(type)}>
            {downloading === type && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t(`reports.download.${type}`)}
          </button>
        ))}
        <button type="button" className="gh-ap-button" data-autofocus onClick={onClose}>{t.t('reports.preview.close')}</button>
      </div>
    </Modal>
  );
}
