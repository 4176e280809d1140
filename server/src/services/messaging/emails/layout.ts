/**
 * The one layout every email is rendered in: an HTML version (a single table, inline styles only, the
 * system font stack, no remote fonts or stylesheets) and a plain-text version with the same content.
 * Every value put into the HTML is escaped here, once: names, tenant names, links and codes are
 * hostile input. Right-to-left languages get `dir="rtl"` on the document and on every block.
 */
import { escapeHtml } from '../mail';

/** The tenant's look: its name, logo (an absolute URL) and colour. */
export interface EmailBrand {
  name: string;
  logoUrl: string | null;
  /** A #rrggbb colour; anything else falls back to the default. */
  color: string;
}

/** What one message says, already translated; the layout decides how it looks. */
export interface EmailContent {
  subject: string;
  greeting: string;
  heading: string;
  paragraphs: string[];
  /** The call to action: a button in HTML, the link on its own line in text. */
  action?: { label: string; url: string; copyHint: string };
  /** A one-time code shown large, with the sentence that introduces it. */
  code?: { intro: string; value: string };
  /** Smaller print under the body (what to do if it was not you). */
  notes: string[];
  footer: string;
}

export const DEFAULT_BRAND_COLOR = '#4f46e5';
const HEX = /^#[0-9a-fA-F]{6}$/;
const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** A colour safe to put into a style attribute: #rrggbb only. */
export function safeColor(color: string | null | undefined): string {
  return color && HEX.test(color) ? color.toLowerCase() : DEFAULT_BRAND_COLOR;
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? '#000000' : '#ffffff';
}

/** Only absolute http(s) links are made clickable; anything else is shown as text. */
function safeUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export function renderEmail(content: EmailContent, brand: EmailBrand, locale: string, dir: 'ltr' | 'rtl'): { subject: string; html: string; text: string } {
  return { subject: content.subject, html: renderHtml(content, brand, locale, dir), text: renderText(content, brand) };
}

function renderText(content: EmailContent, brand: EmailBrand): string {
  const lines: string[] = [brand.name, '', content.greeting, '', content.heading, ''];
  for (const p of content.paragraphs) lines.push(p, '');
  if (content.action) lines.push(`${content.action.label}:`, content.action.url, '');
  if (content.code) lines.push(content.code.intro, content.code.value, '');
  for (const n of content.notes) lines.push(n, '');
  lines.push('--', content.footer, '');
  return lines.join('\n');
}

function renderHtml(content: EmailContent, brand: EmailBrand, locale: string, dir: 'ltr' | 'rtl'): string {
  const color = safeColor(brand.color);
  const onColor = textOn(color);
  const align = dir === 'rtl' ? 'right' : 'left';
  const block = (inner: string, style = '') => `<tr><td dir="${dir}" style="padding:0 32px 16px;text-align:${align};${style}">${inner}</td></tr>`;
  const logoUrl = brand.logoUrl ? safeUrl(brand.logoUrl) : null;
  const header = logoUrl
    ? `<img src="${escapeHtml(logoUrl)}" alt="${escapeHtml(brand.name)}" height="40" style="display:block;height:40px;max-width:200px;border:0">`
    : `<span style="font-size:20px;font-weight:700;color:${color}">${escapeHtml(brand.name)}</span>`;
  const rows: string[] = [
    `<tr><td dir="${dir}" style="padding:24px 32px;border-bottom:4px solid ${color};text-align:${align}">${header}</td></tr>`,
    `<tr><td style="height:24px;line-height:24px">&nbsp;</td></tr>`,
    block(`<h1 style="margin:0;font-size:22px;line-height:1.3;color:#111827">${escapeHtml(content.heading)}</h1>`),
    block(`<p style="margin:0">${escapeHtml(content.greeting)}</p>`),
    ...content.paragraphs.map((p) => block(`<p style="margin:0">${escapeHtml(p)}</p>`)),
  ];
  const actionUrl = content.action ? safeUrl(content.action.url) : null;
  if (content.action && actionUrl) {
    rows.push(
      block(
        `<a href="${escapeHtml(actionUrl)}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${color};color:${onColor};font-weight:600;text-decoration:none">${escapeHtml(content.action.label)}</a>`,
        'padding-top:8px;padding-bottom:24px',
      ),
      block(`<p style="margin:0;font-size:13px;color:#4b5563">${escapeHtml(content.action.copyHint)}<br><span dir="ltr" style="word-break:break-all;color:#111827">${escapeHtml(actionUrl)}</span></p>`),
    );
  }
  if (content.code) {
    rows.push(
      block(`<p style="margin:0">${escapeHtml(content.code.intro)}</p>`),
      block(`<p dir="ltr" style="margin:0;font-size:28px;font-weight:700;letter-spacing:6px;color:#111827;text-align:${align}">${escapeHtml(content.code.value)}</p>`),
    );
  }
  rows.push(...content.notes.map((n) => block(`<p style="margin:0;font-size:13px;color:#4b5563">${escapeHtml(n)}</p>`)));
  rows.push(`<tr><td dir="${dir}" style="padding:16px 32px 24px;border-top:1px solid #e5e7eb;font-size:12px;color:#4b5563;text-align:${align}">${escapeHtml(content.footer)}</td></tr>`);
  return [
    `<!doctype html><html lang="${escapeHtml(locale)}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>`,
    `<body dir="${dir}" style="margin:0;padding:0;background:#f3f4f6;font-family:${FONT};font-size:15px;line-height:1.5;color:#111827">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 0"><tr><td align="center">`,
    `<table role="presentation" dir="${dir}" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px">`,
    ...rows,
    `</table></td></tr></table></body></html>`,
  ].join('');
}
