import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HOSTILE, hostileDocument } from './render.fixtures';
import { REPORT_HTML_CSP, renderReportHtml } from './render-html';

describe('renderReportHtml', () => {
  it('escapes a hostile tenant and user name: no markup of theirs survives', () => {
    const html = renderReportHtml(hostileDocument());
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &#39;quotes&#39;');
    // The only element-opening tags are the renderer's own.
    const tags = new Set([...html.matchAll(/<([a-z0-9]+)[\s>]/g)].map((m) => m[1]));
    expect([...tags].sort()).toEqual(['body', 'dd', 'div', 'dl', 'dt', 'h1', 'h2', 'head', 'html', 'li', 'meta', 'p', 'section', 'style', 'table', 'tbody', 'td', 'th', 'thead', 'title', 'tr', 'ul']);
    expect(HOSTILE).toContain('<script>');
  });

  it('allows its one stylesheet by hash and nothing else, in the header policy and in the document', () => {
    const html = renderReportHtml(hostileDocument());
    const style = /<style>([^<]*)<\/style>/.exec(html)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    expect(REPORT_HTML_CSP).toContain(`style-src 'sha256-${hash}'`);
    expect(REPORT_HTML_CSP).toMatch(/^default-src 'none';/);
    expect(REPORT_HTML_CSP).not.toContain('unsafe');
    // In the attribute the quotes are escaped; the browser reads them back as quotes.
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-${hash}&#39;;`);
  });

  it('says when a table is empty instead of drawing it', () => {
    const html = renderReportHtml(hostileDocument());
    expect(html).toContain('<h2>Nothing here</h2><p class="empty">Nothing to show.</p>');
  });
});
