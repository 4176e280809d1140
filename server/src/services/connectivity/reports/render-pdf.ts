/**
 * A report as PDF, drawn with pdfkit (pure JavaScript, no browser: `npm start` needs nothing more;
 * docs/reports.md says why). Tables use pdfkit's own table layout, which wraps cells and breaks
 * pages. The standard Helvetica font covers Latin text (WinAnsi); other scripts need an embedded
 * font, which this renderer does not ship.
 */
import { reportTime, type ReportDocument } from './document';

const MUTED = '#5b636e';
const LINE = '#d8dde3';
const HEAD = '#f3f5f7';

/** Characters Helvetica's WinAnsi encoding cannot draw become '?', so no glyph comes out as garbage. */
function drawable(text: string): string {
  return text.replace(/[^\u0009\u000A\u000D\u0020-\u007E\u00A0-\u00FF\u2013\u2014\u2018\u2019\u201C\u201D\u2022\u2026\u20AC]/g, '?');
}

/** The PDF bytes; `compress: false` leaves the content streams readable (tests read the text). */
export async function renderReportPdf(doc: ReportDocument, options: { compress?: boolean } = {}): Promise<Buffer> {
  // Loaded on the first PDF, not at start: pdfkit and its fonts cost ~0.2-0.5 s of every server start.
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 36,
    compress: options.compress ?? true,
    info: { Title: doc.title, Subject: doc.templateName, Author: doc.tenantName, Creator: 'Gatehouse', CreationDate: new Date(doc.generatedAt) },
    displayTitle: true,
    lang: 'en',
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const width = pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;

  pdf.font('Helvetica-Bold').fontSize(18).fillColor('#000').text(drawable(doc.title), { width });
  pdf.moveDown(0.2);
  pdf.font('Helvetica').fontSize(10).fillColor(MUTED).text(drawable(`${doc.templateName} · ${doc.tenantName} · ${reportTime(doc.generatedAt)}`), { width });
  if (doc.filters.length) {
    pdf.moveDown(0.3);
    pdf.text(drawable(doc.filters.map((f) => `${f.label}: ${f.value}`).join('   ')), { width });
  }
  if (doc.summary.length) {
    pdf.moveDown(0.8);
    pdf.font('Helvetica').fontSize(10).fillColor('#000');
    pdf.table({
      position: { x: pdf.page.margins.left },
      maxWidth: width,
      columnStyles: doc.summary.map(() => '*'),
      defaultStyle: { border: 0.5, borderColor: LINE, padding: 6 },
      data: [doc.summary.map((s) => ({ text: drawable(s.label), textColor: MUTED })), doc.summary.map((s) => ({ text: drawable(s.value), font: { src: 'Helvetica-Bold', size: 14 } }))],
    });
  }
  for (const table of doc.tables) {
    pdf.moveDown(1);
    pdf.x = pdf.page.margins.left;
    pdf.font('Helvetica-Bold').fontSize(13).fillColor('#000').text(drawable(table.heading), { width });
    pdf.moveDown(0.3);
    if (table.rows.length === 0) {
      pdf.font('Helvetica').fontSize(10).fillColor(MUTED).text(drawable(table.empty), { width });
      continue;
    }
    pdf.font('Helvetica').fontSize(8).fillColor('#000');
    pdf.table({
      position: { x: pdf.page.margins.left },
      maxWidth: width,
      columnStyles: table.columns.map(() => '*'),
      defaultStyle: { border: 0.5, borderColor: LINE, padding: 4 },
      data: [table.columns.map((c) => ({ text: drawable(c), type: 'TH' as const, backgroundColor: HEAD, font: { src: 'Helvetica-Bold' } })), ...table.rows.map((r) => r.map(drawable))],
    });
    if (table.note) {
      pdf.moveDown(0.3);
      pdf.x = pdf.page.margins.left;
      pdf.font('Helvetica').fontSize(9).fillColor(MUTED).text(drawable(table.note), { width });
    }
  }
  pdf.end();
  return done;
}
