/**
 * Slack's OAuth comes back to the page that shows the admin portal (the Slack app's redirect URL,
 * set by the operator), with `?code=…&state=…`. The Slack tab finishes the connection from there and
 * takes both out of the address bar, so a reload never sends a used code again.
 */

/** The code and state Slack sent back to this page, if it did (Slack's `error` counts too). */
export function slackReturn(location: { search: string }): { code: string; state: string } | { error: string } | null {
  const params = new URLSearchParams(location.search);
  const state = params.get('state');
  const error = params.get('error');
  if (state && error) return { error };
  const code = params.get('code');
  return code && state ? { code, state } : null;
}

/** The page's address without Slack's parameters (the others stay). */
export function withoutSlackReturn(href: string): string {
  const url = new URL(href);
  for (const name of ['code', 'state', 'error', 'error_description']) url.searchParams.delete(name);
  return url.toString();
}

/** Name of the window Slack's consent opens in: a page that finishes the flow in it closes it. */
export const SLACK_WINDOW = 'gatehouse-slack-connect';
