import { describe, expect, it } from 'vitest';
import { hostileDocument } from './render.fixtures';
import { drawnText, inflatedText, pageCount, pdfTitle } from '../../../test/pdf-text';
import { renderReportPdf } from './render-pdf';

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
    expect(inflatedText(pdf)).toContain('Quarterly MFA review');
  });

  it('breaks a long table over pages', async () => {
    const one = await renderReportPdf(hostileDocument(3), { compress: false });
    const many = await renderReportPdf(hostileDocument(400), { compress: false });
    expect(pageCount(one)).toBe(1);
    expect(pageCount(many)).toBeGreaterThan(5);
    expect(drawnText(many)).toContain('user399@example.test');
  });
});
