/**
 * A report as a JPEG: drawn as SVG here (every value XML-escaped, long cells cut to their column),
 * then rasterised and encoded by sharp (libvips with librsvg). One image of the whole report, 1200
 * px wide; rows beyond IMAGE_MAX_ROWS per table are left out with a line saying so.
 */
import { reportTime, type ReportDocument } from './document';

export const IMAGE_WIDTH = 1200;
/** Rows drawn per table: an image is a glance, the PDF and HTML carry every row. */
export const IMAGE_MAX_ROWS = 60;
const PAD = 32;
const ROW = 24;
const FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif";

/** Everything XML 1.0 does not allow (C0 controls, U+FFFE/U+FFFF, lone surrogates): librsvg refuses the whole SVG for one of them. */
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const xml = (s: string) => s.replace(NOT_XML_CHAR, '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] as string);

/** Cuts `text` to about `px` of 13 px text (an average glyph is ~7 px wide). */
function fit(text: string, px: number): string {
  const max = Math.max(1, Math.floor(px / 7));
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The report's SVG (exported for tests of its escaping). */
export function renderReportSvg(doc: ReportDocument): string {
  const parts: string[] = [];
  const inner = IMAGE_WIDTH - 2 * PAD;
  let y = PAD;
  const text = (x: number, yy: number, s: string, attrs = '') => parts.push(`<text x="${x}" y="${yy}" ${attrs}>${xml(s)}</text>`);

  y += 24;
  text(PAD, y, fit(doc.title, inner * 0.6), 'font-size="24" font-weight="bold" fill="#1b1f24"');
  y += 26;
  text(PAD, y, fit(`${doc.templateName} · ${doc.tenantName} · ${reportTime(doc.generatedAt)}`, inner), 'font-size="13" fill="#5b636e"');
  if (doc.filters.length) {
    y += 22;
    text(PAD, y, fit(doc.filters.map((f) => `${f.label}: ${f.value}`).join('   '), inner), 'font-size="13" fill="#5b636e"');
  }
  if (doc.summary.length) {
    y += 20;
    const w = inner / doc.summary.length;
    doc.summary.forEach((s, i) => {
      const x = PAD + i * w;
      parts.push(`<rect x="${x + 2}" y="${y}" width="${w - 8}" height="58" rx="6" fill="none" stroke="#d8dde3"/>`);
      text(x + 14, y + 22, fit(s.label, w - 28), 'font-size="12" fill="#5b636e"');
      text(x + 14, y + 46, fit(s.value, w - 28), 'font-size="18" font-weight="bold" fill="#1b1f24"');
    });
    y += 58;
  }
  for (const table of doc.tables) {
    y += 40;
    text(PAD, y, fit(table.heading, inner), 'font-size="17" font-weight="bold" fill="#1b1f24"');
    y += 12;
    if (table.rows.length === 0) {
      y += 18;
      text(PAD, y, fit(table.empty, inner), 'font-size="13" fill="#5b636e"');
      continue;
    }
    const col = inner / table.columns.length;
    parts.push(`<rect x="${PAD}" y="${y}" width="${inner}" height="${ROW}" fill="#f3f5f7"/>`);
    table.columns.forEach((c, i) => text(PAD + i * col + 6, y + 17, fit(c, col - 12), 'font-size="13" font-weight="bold" fill="#1b1f24"'));
    y += ROW;
    const rows = table.rows.slice(0, IMAGE_MAX_ROWS);
    for (const row of rows) {
      row.forEach((v, i) => text(PAD + i * col + 6, y + 17, fit(v, col - 12), 'font-size="13" fill="#1b1f24"'));
      y += ROW;
      parts.push(`<line x1="${PAD}" y1="${y}" x2="${PAD + inner}" y2="${y}" stroke="#d8dde3"/>`);
    }
    const notes = [table.rows.length > IMAGE_MAX_ROWS ? `${table.rows.length - IMAGE_MAX_ROWS} more rows are in the PDF and HTML versions.` : '', table.note ?? ''].filter(Boolean);
    for (const note of notes) {
      y += 20;
      text(PAD, y, fit(note, inner), 'font-size="12" fill="#5b636e"');
    }
  }
  y += PAD;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${Math.ceil(y)}" viewBox="0 0 ${IMAGE_WIDTH} ${Math.ceil(y)}" font-family="${FONT}"><rect width="100%" height="100%" fill="#ffffff"/>${parts.join('')}</svg>`;
}

/** The report as JPEG bytes. */
export async function renderReportJpeg(doc: ReportDocument): Promise<Buffer> {
  // Loaded on the first image, not at start: sharp (libvips) costs ~0.3 s of every server start.
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(renderReportSvg(doc)), { density: 72 }).flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: true }).toBuffer();
}
