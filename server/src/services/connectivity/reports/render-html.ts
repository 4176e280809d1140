/**
 * A report as one self-contained HTML document: every value escaped, no script, no external
 * resource, one inline stylesheet allowed by its hash. The same policy travels as a header
 * (REPORT_HTML_CSP) and in a meta element, so it holds in a srcdoc preview too.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../../messaging/mail';
import { reportTime, type ReportDocument } from './document';

const STYLE = [
  ':root{color-scheme:light dark;--fg:#1b1f24;--muted:#5b636e;--line:#d8dde3;--head:#f3f5f7;--bg:#fff}',
  '@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--muted:#a5acb5;--line:#3a4048;--head:#22272e;--bg:#16191d}}',
  'body{margin:0;padding:24px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}',
  'h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}',
  '.meta{color:var(--muted);margin:0 0 16px}',
  'dl{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:8px;margin:0 0 8px}',
  'dl div{border:1px solid var(--line);border-radius:6px;padding:8px 12px}dt{color:var(--muted);font-size:12px}dd{margin:0;font-size:18px;font-weight:600}',
  '.filters{color:var(--muted);font-size:13px;margin:0 0 8px;padding:0;list-style:none}.filters li{display:inline;margin-inline-end:16px}',
  '.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:13px}',
  'th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:start;vertical-align:top}th{background:var(--head);font-weight:600}',
  'td{overflow-wrap:anywhere}.note,.empty{color:var(--muted);font-size:13px}',
].join('');

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** The policy of a report's HTML: nothing runs, nothing loads, only its own stylesheet applies. */
export const REPORT_HTML_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
const META_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'none'; base-uri 'none'; form-action 'none'`;

export function renderReportHtml(doc: ReportDocument): string {
  const e = escapeHtml;
  const filters = doc.filters.length ? `<ul class="filters">${doc.filters.map((f) => `<li>${e(f.label)}: ${e(f.value)}</li>`).join('')}</ul>` : '';
  const summary = doc.summary.length ? `<dl>${doc.summary.map((s) => `<div><dt>${e(s.label)}</dt><dd>${e(s.value)}</dd></div>`).join('')}</dl>` : '';
  const tables = doc.tables
    .map((t) => {
      const body = t.rows.length
        ? `<div class="scroll"><table><thead><tr>${t.columns.map((c) => `<th scope="col">${e(c)}</th>`).join('')}</tr></thead><tbody>${t.rows
            .map((r) => `<tr>${r.map((v) => `<td>${e(v)}</td>`).join('')}</tr>`)
            .join('')}</tbody></table></div>`
        : `<p class="empty">${e(t.empty)}</p>`;
      return `<section><h2>${e(t.heading)}</h2>${body}${t.note ? `<p class="note">${e(t.note)}</p>` : ''}</section>`;
    })
    .join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${e(META_CSP)}">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${e(doc.title)}</title><style>${STYLE}</style></head><body>` +
    `<h1>${e(doc.title)}</h1><p class="meta">${e(doc.templateName)} · ${e(doc.tenantName)} · ${e(reportTime(doc.generatedAt))}</p>` +
    `${filters}${summary}${tables}</body></html>`
  );
}
