/**
 * docs/events.md, rendered from the catalogue (events-doc.test.ts fails when the file is out of
 * date, and rewrites it with UPDATE_EVENTS_MD=1). Not exported from the wire index: only the
 * documentation needs it.
 */
import { EVENT_CATALOGUE, EventCategories, type EventCatalogueEntry } from './events';

const CATEGORY_TITLES: Record<(typeof EventCategories)[number], string> = {
  users: 'Users',
  authentication: 'Authentication',
  roles: 'Roles',
  groups: 'Groups',
  api_tokens: 'API tokens',
  sso: 'SSO',
  scim: 'SCIM provisioning',
  security: 'Security',
  billing: 'Billing',
  sub_accounts: 'Sub-accounts',
  webhooks: 'Webhooks',
};

const INTRO = `# Event catalogue

<!-- Generated from shared/src/wire/connectivity/events.ts: edit the catalogue, then run
     UPDATE_EVENTS_MD=1 npx vitest run --project shared shared/src/wire/connectivity/events-doc.test.ts -->

Every event Gatehouse raises, with its key, what it means, the JSON schema of its \`data\` and an
example. The same catalogue is served to the admin portal at \`GET /connectivity/resources/events/v1\`
and is what webhooks, the email, Slack and SMS channels, and notifications subscribe to. How events
are raised and delivered is in [connectivity.md](connectivity.md#events-and-delivery).

Each event carries, beside its \`data\`:

| Field | Meaning |
| --- | --- |
| \`id\` | The event's id: the same on every delivery of it, so a receiver can drop duplicates (delivery is at least once). |
| \`key\` | One of the keys below. |
| \`tenantId\` | The tenant (account) it happened in. |
| \`actor\` | \`{ userId, email }\` of who acted (an admin, or the user themselves), or \`null\` for the system (SCIM, schedules). |
| \`occurredAt\` | When the change committed, in milliseconds since the epoch. |

\`data\` never holds a secret: no token, password, code or webhook secret.
`;

function section(entry: EventCatalogueEntry): string {
  return [
    `### \`${entry.key}\``,
    '',
    entry.description,
    '',
    'Schema of `data`:',
    '',
    '```json',
    JSON.stringify(entry.schema, null, 2),
    '```',
    '',
    'Example `data`:',
    '',
    '```json',
    JSON.stringify(entry.example, null, 2),
    '```',
  ].join('\n');
}

/** The whole of docs/events.md. */
export function renderEventsDoc(): string {
  const parts: string[] = [INTRO, '## Events by category', ''];
  for (const category of EventCategories) {
    const entries = EVENT_CATALOGUE.filter((e) => e.category === category);
    if (entries.length > 0) parts.push(`- **${CATEGORY_TITLES[category]}**: ${entries.map((e) => `[\`${e.key}\`](#${e.key.replace(/\./g, '')})`).join(', ')}`);
  }
  for (const category of EventCategories) {
    const entries = EVENT_CATALOGUE.filter((e) => e.category === category);
    if (entries.length === 0) continue;
    parts.push('', `## ${CATEGORY_TITLES[category]}`, '', entries.map(section).join('\n\n'));
  }
  return `${parts.join('\n')}\n`;
}
