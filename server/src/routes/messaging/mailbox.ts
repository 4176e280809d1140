import { DevPaths, type DevMailboxEntry as MailboxEntry } from '@gatehouse/shared/wire';
import { Hono } from 'hono';
import type { Db } from '../../db';
import { listOutbox, type OutboxRow } from '../../db/queries/outbox';
import type { AppEnv } from '../../http/env';
import { escapeHtml } from '../../services/messaging/mail';


const toEntry = (r: OutboxRow): MailboxEntry => ({
  id: r.id,
  to: r.to_address,
  subject: r.subject,
  text: r.text_body,
  html: r.html_body,
  createdAt: new Date(r.created_at).toISOString(),
  channel: r.channel === 'sms' ? 'sms' : 'email',
});

function page(entries: MailboxEntry[]): string {
  const items = entries
    .map((m) => {
      const links = [...new Set(m.text.match(/https?:\/\/[^\s<>"]+/g) ?? [])].map((u) => `<li><a href="${escapeHtml(u)}">${escapeHtml(u)}</a></li>`).join('');
      // Mail HTML is untrusted: shown in a sandbox without scripts; links may open in the top window.
      const frame = m.html
        ? `<iframe title="${escapeHtml(m.subject)}" sandbox="allow-top-navigation-by-user-activation allow-popups" srcdoc="${escapeHtml(`<base target="_top">${m.html}`)}"></iframe>`
        : `<pre>${escapeHtml(m.text)}</pre>`;
      return `<article data-id="${escapeHtml(m.id)}"><h2>${escapeHtml(m.subject)}</h2><p class="meta">${m.channel === 'sms' ? 'SMS to' : 'To'} <b>${escapeHtml(m.to)}</b> at ${escapeHtml(m.createdAt)}</p>${links ? `<ul class="links">${links}</ul>` : ''}${frame}</article>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dev mailbox</title><style>
body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem;color:#212529;overflow-wrap:anywhere}article{border:1px solid #dee2e6;border-radius:8px;padding:1rem;margin:1rem 0}
h2{font-size:1.1rem;margin:0}.meta{color:#666;margin:.25rem 0}iframe{width:100%;height:16rem;border:1px solid #eee}
</style></head><body><h1>Dev mailbox</h1><p>${entries.length} message(s), newest first. Only in dev mode.</p>${items || '<p>No mail yet.</p>'}</body></html>`;
}

/** Dev mode only: the outbox as JSON (for tests) and as a page (for people). */
export function mailboxRoutes(db: Db): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get(DevPaths.mailboxJson, async (c) => c.json((await listOutbox(db)).map(toEntry)));
  app.get(DevPaths.mailbox, async (c) =>
    c.html(page((await listOutbox(db)).map(toEntry)), 200, {
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'Cache-Control': 'no-store',
    }),
  );
  return app;
}
