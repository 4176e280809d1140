/** Reads the real dev outbox of a running server (`/dev/mailbox.json`, newest first). */
export interface OutboxMessage { to: string; subject: string; text: string; html: string; createdAt: string }

export async function waitForMail(baseUrl: string, to: string, subject: RegExp, timeoutMs = 10_000): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; attempt < 200 && Date.now() < deadline; attempt++) {
    const messages = (await (await fetch(`${baseUrl}/dev/mailbox.json`)).json()) as OutboxMessage[];
    const found = messages.find((m) => m.to.includes(to) && subject.test(m.subject));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
}

/** The first http(s) link in a message's text that contains `path`. */
export function linkIn(message: OutboxMessage, path: string): string {
  const link = message.text.match(/https?:\/\/[^\s"'<>]+/g)?.find((l) => l.includes(path));
  if (!link) throw new Error(`no link containing ${path} in mail "${message.subject}"`);
  return link;
}
