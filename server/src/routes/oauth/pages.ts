/**
 * The HTML of hosted login: the hosted page (the login box full page, and the hosted admin portal),
 * rendered like the demo page (loader with SRI from the live manifest, strict CSP with a nonce), and
 * plain message pages (errors, the logout question, signed out) with no script at all.
 */
import { randomBytes } from 'node:crypto';
import { HOSTED_ROUTES_PREFIX, OAuthPaths } from '@gatehouse/shared/wire';
import { defaultRoutes } from '../../../../shared/src/routes';
import type { Config } from '../../config';
import { demoCsp } from '../platform/demo';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
/** JSON inside a script element: `<` escaped so no value can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The seed's routes under `/oauth`, so the hosted pages never collide with a host app (or the demo
 * page) on the same origin. A user signed in with nothing to return to lands on the hosted portal.
 */
export function hostedRoutes(): Record<string, string> {
  const routes: Record<string, string> = {};
  for (const [name, value] of Object.entries(defaultRoutes)) routes[name] = `${HOSTED_ROUTES_PREFIX}${value}`;
  routes.authenticatedUrl = OAuthPaths.portal;
  return routes;
}

const PAGE_STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; background: #f4f5f7; color: #1f2430; display: flex; flex-direction: column; align-items: center; }
  main { width: 100%; max-width: 460px; margin: 48px auto; padding: 0 16px; box-sizing: border-box; }
  main.wide { max-width: 960px; }
  .brand { text-align: center; font-weight: 600; letter-spacing: .02em; color: #3b5bdb; margin-bottom: 16px; }
  .card { background: #fff; border: 1px solid #e3e5ea; border-radius: 12px; padding: 24px; }
  .card h1 { font-size: 1.35rem; margin: 0 0 12px; }
  .card p { line-height: 1.5; }
  .actions { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 20px; }
  button, .button { font: inherit; padding: 10px 16px; border-radius: 8px; border: 1px solid #c9ccd4; background: #fff; color: inherit; cursor: pointer; text-decoration: none; }
  button.primary { background: #3b5bdb; color: #fff; border-color: #3b5bdb; }
  button:focus-visible, .button:focus-visible { outline: 3px solid #91a7ff; outline-offset: 2px; }
  .gatehouse-loading main::before { content: "Loading…"; display: block; text-align: center; color: #6b7080; }
  .gatehouse-error { background: #fff5f5; border: 1px solid #ffc9c9; color: #c92a2a; border-radius: 8px; padding: 12px 16px; }
`;

/** The hosted page: the loader with the hosted routes; on `/oauth/portal` it opens the admin portal. */
export function renderHostedPage(config: Pick<Config, 'publicUrl' | 'clientId'>, loader: { entry: string; integrity: string }, portal: boolean): { html: string; csp: string } {
  const nonce = randomBytes(16).toString('base64');
  const options = { contextOptions: { baseUrl: config.publicUrl, clientId: config.clientId }, nonce, authOptions: { routes: hostedRoutes() } };
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${portal ? 'Your account' : 'Sign in'} · Gatehouse</title>
    <style nonce="${nonce}">${PAGE_STYLE}</style>
  </head>
  <body>
    <main${portal ? ' class="wide"' : ''}>
      ${portal ? '' : '<div class="brand">Gatehouse</div>'}
      <gatehouse-login-box></gatehouse-login-box>
      <gatehouse-admin-portal></gatehouse-admin-portal>
    </main>
    <script nonce="${nonce}" src="${escapeHtml(`${config.publicUrl}/cdn/${loader.entry}`)}" integrity="${escapeHtml(loader.integrity)}" crossorigin="anonymous"></script>
    <script nonce="${nonce}">
      const app = Gatehouse.initialize(${scriptJson(options)});
      // Signed in (the login box comes back to ${OAuthPaths.authorize} with the application's request
      // as its query): carry the request on and go back to the application with a code.
      const authorize = async () => {
        const user = app.getState()?.user;
        if (location.pathname !== ${scriptJson(OAuthPaths.authorize)} || !user) return;
        const response = await fetch(${scriptJson(OAuthPaths.authorizeComplete)}, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer ' + user.accessToken },
          body: JSON.stringify(Object.fromEntries(new URLSearchParams(location.search))),
        });
        const body = await response.json().catch(() => ({}));
        if (response.ok && /^https?:/.test(body.redirectUrl)) return location.replace(body.redirectUrl);
        const alert = document.createElement('p');
        alert.setAttribute('role', 'alert');
        alert.className = 'gatehouse-error';
        alert.textContent = 'This sign-in request cannot be completed: ' + ((body.errors || []).join(', ') || 'Error ' + response.status);
        document.querySelector('main').prepend(alert);
      };
      // The hosted admin portal (seed 000 section 2.1): shown on ${OAuthPaths.portal} once signed in.
      const portal = () => { if (location.pathname === ${scriptJson(OAuthPaths.portal)}) app.showAdminPortal(); };
      const route = () => { void authorize(); portal(); };
      app.addOnLoadedListener(route);
      addEventListener('popstate', route);
    </script>
  </body>
</html>`;
  return { html, csp: demoCsp(nonce, config.publicUrl) };
}

export interface MessagePage {
  title: string;
  message: string;
  /** A form that posts back (the logout question): its hidden fields and button labels. */
  form?: { action: string; fields: Record<string, string>; confirm: string; cancelHref?: string; cancel?: string };
  /** Where that form's answer may redirect (CSP form-action covers redirects after a submit). */
  formTargets?: string[];
  /** The language of the words (`lang` on <html>; English by default) and its direction. */
  lang?: string;
  dir?: 'ltr' | 'rtl';
}

/** An error or message page: no script, strict CSP, errors in role=alert. */
export function renderMessagePage(page: MessagePage, alert: boolean): { html: string; csp: string } {
  const nonce = randomBytes(16).toString('base64');
  const form = page.form
    ? `<form method="post" action="${escapeHtml(page.form.action)}">
          ${Object.entries(page.form.fields)
            .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}" />`)
            .join('\n          ')}
          <div class="actions">
            <button class="primary" type="submit" autofocus>${escapeHtml(page.form.confirm)}</button>
            ${page.form.cancelHref ? `<a class="button" href="${escapeHtml(page.form.cancelHref)}">${escapeHtml(page.form.cancel ?? 'Stay signed in')}</a>` : ''}
          </div>
        </form>`
    : '';
  const html = `<!doctype html>
<html lang="${escapeHtml(page.lang ?? 'en')}"${page.dir ? ` dir="${page.dir}"` : ''}>
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(page.title)} · Gatehouse</title>
    <style nonce="${nonce}">${PAGE_STYLE}</style>
  </head>
  <body>
    <main>
      <div class="brand">Gatehouse</div>
      <section class="card">
        <h1>${escapeHtml(page.title)}</h1>
        <p${alert ? ' role="alert"' : ''}>${escapeHtml(page.message)}</p>
        ${form}
      </section>
    </main>
  </body>
</html>`;
  const formAction = ["'self'", ...(page.formTargets ?? [])].join(' ');
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`;
  return { html, csp };
}
