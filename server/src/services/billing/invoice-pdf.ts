/**
 * A small PDF writer for invoices (no dependency): one A4 page, Helvetica, lines of text, with the
 * cross-reference table computed from the byte offsets. Text outside Latin-1 prints as '?', since
 * the standard fonts know no other characters.
 */

export interface InvoicePdfInput {
  title: string;
  vendor: string;
  tenant: string;
  number: string;
  date: string;
  status: string;
  currency: string;
  lines: { description: string; quantity: number; amount: string }[];
  total: string;
}

/** `(...)` string literal of PDF: Latin-1 only, with backslash, parentheses and control characters escaped. */
function pdfString(text: string): string {
  const latin1 = [...text].map((ch) => (ch.charCodeAt(0) < 256 && ch.length === 1 ? ch : '?')).join('');
  return `(${latin1.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[\x00-\x1f\x7f]/g, ' ')})`;
}

/** The PDF's bytes. */
export function renderInvoicePdf(input: InvoicePdfInput): Uint8Array {
  const ops: string[] = [];
  const text = (x: number, y: number, size: number, bold: boolean, s: string) => ops.push(`BT /${bold ? 'F2' : 'F1'} ${size} Tf ${x} ${y} Td ${pdfString(s.slice(0, 120))} Tj ET`);
  let y = 780;
  text(56, y, 22, true, input.title);
  y -= 28;
  text(56, y, 11, false, input.vendor);
  y -= 30;
  for (const [label, value] of [['Invoice number', input.number], ['Date', input.date], ['Billed to', input.tenant], ['Status', input.status]] as const) {
    text(56, y, 10, true, label);
    text(180, y, 10, false, value);
    y -= 16;
  }
  y -= 20;
  text(56, y, 10, true, 'Description');
  text(380, y, 10, true, 'Qty');
  text(450, y, 10, true, `Amount (${input.currency.toUpperCase()})`);
  ops.push(`0.5 w 56 ${y - 6} m 540 ${y - 6} l S`);
  y -= 22;
  for (const line of input.lines.slice(0, 30)) {
    text(56, y, 10, false, line.description);
    text(380, y, 10, false, String(line.quantity));
    text(450, y, 10, false, line.amount);
    y -= 16;
  }
  ops.push(`0.5 w 56 ${y + 8} m 540 ${y + 8} l S`);
  y -= 10;
  text(380, y, 12, true, 'Total');
  text(450, y, 12, true, `${input.total} ${input.currency.toUpperCase()}`);

  const content = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}
