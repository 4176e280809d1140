import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { HOSTILE, hostileDocument } from './render.fixtures';
import { IMAGE_MAX_ROWS, IMAGE_WIDTH, renderReportJpeg, renderReportSvg } from './render-image';

describe('renderReportJpeg', () => {
  it('is a JPEG of the report, 1200 px wide, taller with more rows', async () => {
    const small = await renderReportJpeg(hostileDocument(3));
    expect([...small.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const meta = await sharp(small).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(IMAGE_WIDTH);
    const big = await sharp(await renderReportJpeg(hostileDocument(40))).metadata();
    expect(big.height! - meta.height!).toBe(37 * 24);
  });

  it('draws text, not a blank page: the title area has dark pixels', async () => {
    const jpeg = await renderReportJpeg(hostileDocument(3));
    const { data, info } = await sharp(jpeg).extract({ left: 32, top: 30, width: 300, height: 30 }).greyscale().raw().toBuffer({ resolveWithObject: true });
    const dark = [...data].filter((v) => v < 100).length;
    expect(info.width).toBe(300);
    expect(dark).toBeGreaterThan(200);
  });

  it('escapes hostile text into the SVG and caps the rows drawn', () => {
    const svg = renderReportSvg(hostileDocument(IMAGE_MAX_ROWS + 5));
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<img');
    expect(svg).toContain('&lt;script&gt;');
    expect(svg).toContain('5 more rows are in the PDF and HTML versions.');
    expect(svg).not.toContain(`user${IMAGE_MAX_ROWS + 1}@example.test`);
    expect(HOSTILE).toContain('<img');
  });

  // Regression: U+FFFE/U+FFFF and lone surrogates passed the old filter and sharp failed with "XML parse error".
  it('draws a member name holding U+FFFE, U+FFFF, lone surrogates and controls, dropping only those characters', async () => {
    const name = 'Eve\uFFFE\uFFFF\uDFFF\uD800\u0001 Ünïcødé 😀';
    const doc = hostileDocument(2);
    doc.tables[0]!.rows[1]![0] = name;
    const svg = renderReportSvg(doc);
    expect(svg).toContain('Eve Ünïcødé 😀');
    expect(svg).not.toMatch(/[\uFFFE\uFFFF\u0001]/);
    const meta = await sharp(await renderReportJpeg(doc)).metadata();
    expect(meta.format).toBe('jpeg');
  });
});
