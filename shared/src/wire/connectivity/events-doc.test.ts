import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_KEYS } from './events';
import { renderEventsDoc } from './events-doc';

const EVENTS_DOC = path.join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'events.md');

describe('docs/events.md', () => {
  it('is the catalogue rendered: every key with its description, schema and example (UPDATE_EVENTS_MD=1 rewrites it)', () => {
    const doc = renderEventsDoc();
    if (process.env.UPDATE_EVENTS_MD === '1') writeFileSync(EVENTS_DOC, doc);
    expect(existsSync(EVENTS_DOC), 'docs/events.md exists').toBe(true);
    expect(readFileSync(EVENTS_DOC, 'utf8')).toBe(doc);
    for (const key of EVENT_KEYS) expect(doc).toContain(`### \`${key}\``);
  });
});
