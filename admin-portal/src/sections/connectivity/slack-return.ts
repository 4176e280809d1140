/**
 * Slack's OAuth comes back to the page that shows the admin portal (the Slack app's redirect URL,
 * set by the operator), with `?code=…&state=…`. Only a return this browser asked for counts: the
 * Slack tab keeps the state of the consent it opened (localStorage, shared with the consent window,
 * 10 minutes), so another flow's `code` and `state` on the page (an OAuth callback) are never taken
 * for Slack's. The tab finishes the connection and takes both out of the address bar, so a reload
 * never sends a used code again.
 */

/** Name of the window Slack's consent opens in: a page that finishes the flow in it closes it. */
export const SLACK_WINDOW = 'gatehouse-slack-connect';

const PENDING_KEY = 'gatehouse:slack-connect';
/** The server's state lives 10 minutes (shared/src/wire/connectivity/channels.ts SlackScopeResponse). */
const PENDING_MS = 10 * 60_000;

/** Keeps the state of the consent this browser is about to open. */
export function rememberSlackState(state: string, now = Date.now()): void {
  try {
    localStorage.setItem(PENDING_KEY, JSON.stringify({ state, at: now }));
  } catch {
    // Storage refused (private mode, a sandboxed frame): the return will not be recognised, and the tab says nothing.
  }
}

/** Forgets it, once the return was handled. */
export function forgetSlackState(): void {
  try {
    localStorage.removeItem(PENDING_KEY);
  } catch {
    // Nothing was kept.
  }
}

function pendingState(now: number): string | null {
  try {
    const raw = localStorage.getItem(PENDING_KEY);
    const pending = raw ? (JSON.parse(raw) as { state?: unknown; at?: unknown }) : null;
    if (!pending || typeof pending.state !== 'string' || typeof pending.at !== 'number' || now - pending.at > PENDING_MS) return null;
    return pending.state;
  } catch {
    return null;
  }
}

/** The code and state Slack sent back to this page for the consent this browser opened (Slack's `error` counts too), else null. */
export function slackReturn(location: { search: string }, now = Date.now()): { code: string; state: string } | { error: string } | null {
  const params = new URLSearchParams(location.search);
  const state = params.get('state');
  if (!state || state !== pendingState(now)) return null;
  const error = params.get('error');
  if (error) return { error };
  const code = params.get('code');
  return code ? { code, state } : null;
}

/** The page's address without Slack's parameters (the others stay). */
export function withoutSlackReturn(href: string): string {
  const url = new URL(href);
  for (const name of ['code', 'state', 'error', 'error_description']) url.searchParams.delete(name);
  return url.toString();
}
