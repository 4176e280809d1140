import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { hostileDocument } from './render.fixtures';
import { renderReportPdf } from './render-pdf';

/** The text drawn by a PDF's uncompressed content streams: the hex strings pdfkit writes in TJ arrays, decoded. */
function drawnText(pdf: Buffer): string {
  const body = pdf.toString('latin1');
  return [...body.matchAll(/\[((?:<[0-9a-f]+>\s*-?[\d.]*\s*)+)\]\s*TJ/g)]
    .map((m) => [...m[1]!.matchAll(/<([0-9a-f]+)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''))
    .join('\n');
}

/** The info dictionary's Title (direct, or an indirect object as pdfkit writes it): a literal `(...)` or a hex `<...>` string (UTF-16BE with a BOM, or bytes). */
function pdfTitle(pdf: Buffer): string | null {
  const body = pdf.toString('latin1');
  const ref = /\/Title (\d+) 0 R/.exec(body);
  const value = ref ? new RegExp(`(?:^|\\n)${ref[1]} 0 obj\\s*([\\s\\S]*?)\\s*endobj`).exec(body)?.[1] : /\/Title\s*(\([^\n]*\)|<[0-9a-fA-F]+>)/.exec(body)?.[1];
  if (!value) return null;
  if (value.startsWith('(')) return value.slice(1, -1).replace(/\\(.)/g, '$1');
  const bytes = Buffer.from(value.slice(1, -1), 'hex');
  return bytes[0] === 0xfe && bytes[1] === 0xff ? bytes.subarray(2).swap16().toString('utf16le') : bytes.toString('latin1');
}

describe('renderReportPdf', () => {
  it('is a PDF whose info dictionary and drawn text carry the report title', async () => {
    const pdf = await renderReportPdf(hostileDocument(), { compress: false });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    expect(pdfTitle(pdf)).toBe('Quarterly MFA review');
    const text = drawnText(pdf);
    expect(text).toContain('Quarterly MFA review');
    expect(text).toContain('user1@example.test');
    expect(text).toContain('Nothing to show.');
  });

  it('compresses its streams by default (the title stays in the info dictionary)', async () => {
    const pdf = await renderReportPdf(hostileDocument());
    expect(pdf.toString('latin1')).toContain('/FlateDecode');
    expect(pdfTitle(pdf)).toBe('Quarterly MFA review');
    expect(drawnText(pdf)).toBe('');
    // The compressed content still holds the drawn title.
    const streams = [...pdf.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((m) => { try { return inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1'); } catch { return ''; } });
    expect(drawnText(Buffer.from(streams.join('\n'), 'latin1'))).toContain('Quarterly MFA review');
  });

  it('breaks a long table over pages', async () => {
    const one = await renderReportPdf(hostileDocument(3), { compress: false });
    const many = await renderReportPdf(hostileDocument(400), { compress: false });
    const pages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
    expect(pages(one)).toBe(1);
    expect(pages(many)).toBeGreaterThan(5);
    expect(drawnText(many)).toContain('user399@example.test');
  });
});
