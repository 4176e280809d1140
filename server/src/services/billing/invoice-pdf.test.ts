import { expect, it } from 'vitest';
import { renderInvoicePdf } from './invoice-pdf';

const input = {
  title: 'Invoice',
  vendor: 'Gatehouse',
  tenant: 'Acme (EU) \\ Ltd',
  number: 'INV-0001',
  date: '2026-11-27',
  status: 'Paid',
  currency: 'usd',
  lines: [{ description: 'Premium', quantity: 1, amount: '100.00' }],
  total: '100.00',
};

it('writes a PDF whose cross-reference table points at each object and whose stream length is exact', () => {
  const text = Buffer.from(renderInvoicePdf(input)).toString('latin1');
  expect(text.startsWith('%PDF-1.4\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n/.exec(text)![1]);
  expect(text.slice(startxref, startxref + 4)).toBe('xref');
  const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
  expect(offsets).toHaveLength(6);
  offsets.forEach((offset, i) => expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`));
  const stream = /<< \/Length (\d+) >>\nstream\n([\s\S]*?)\nendstream/.exec(text)!;
  expect(Buffer.byteLength(stream[2]!, 'latin1')).toBe(Number(stream[1]));
  expect(text).toContain('(100.00 USD) Tj');
  expect(text).toContain('(INV-0001) Tj');
});

it('escapes parentheses and backslashes, and prints characters beyond Latin-1 as ?', () => {
  const text = Buffer.from(renderInvoicePdf({ ...input, tenant: 'Acme (EU) \\ Ltd', lines: [{ description: 'Plan ✓ 日本 ) Tj (evil', quantity: 1, amount: '1.00' }] })).toString('latin1');
  expect(text).toContain('(Acme \\(EU\\) \\\\ Ltd) Tj');
  expect(text).toContain('(Plan ? ?? \\) Tj \\(evil) Tj');
});
