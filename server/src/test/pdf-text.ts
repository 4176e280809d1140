/** Reads what tests need from a PDF without a PDF library: the info dictionary's Title and the text of uncompressed content streams. */
import { inflateSync } from 'node:zlib';

/** The info dictionary's Title (direct, or an indirect object as pdfkit writes it): a literal `(...)` or a hex `<...>` string (UTF-16BE with a BOM, or bytes). */
export function pdfTitle(pdf: Buffer): string | null {
  const body = pdf.toString('latin1');
  const ref = /\/Title (\d+) 0 R/.exec(body);
  const value = ref ? new RegExp(`(?:^|\\n)${ref[1]} 0 obj\\s*([\\s\\S]*?)\\s*endobj`).exec(body)?.[1] : /\/Title\s*(\([^\n]*\)|<[0-9a-fA-F]+>)/.exec(body)?.[1];
  if (!value) return null;
  if (value.startsWith('(')) return value.slice(1, -1).replace(/\\(.)/g, '$1');
  const bytes = Buffer.from(value.slice(1, -1), 'hex');
  return bytes[0] === 0xfe && bytes[1] === 0xff ? Buffer.from(bytes.subarray(2)).swap16().toString('utf16le') : bytes.toString('latin1');
}

/** The text drawn by a PDF's uncompressed content streams: the hex strings pdfkit writes in TJ arrays, decoded. */
export function drawnText(pdf: Buffer): string {
  const body = pdf.toString('latin1');
  return [...body.matchAll(/\[((?:<[0-9a-f]+>\s*-?[\d.]*\s*)+)\]\s*TJ/g)]
    .map((m) => [...m[1]!.matchAll(/<([0-9a-f]+)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''))
    .join('\n');
}

/** The page objects of a PDF. */
export function pageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
}

/** The drawn text of a PDF whose content streams are Flate-compressed (pdfkit's default). */
export function inflatedText(pdf: Buffer): string {
  const streams = [...pdf.toString('latin1').matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((m) => {
    try {
      return inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      return '';
    }
  });
  return drawnText(Buffer.from(streams.join('\n'), 'latin1'));
}
