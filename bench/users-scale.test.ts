/**
 * Scale check of the admin users list (issue 5: "Users lists stay fast at 100,000 users in a tenant").
 * Seeds 100,000 users into one tenant with batched inserts (SQLite; and PostgreSQL when DATABASE_URL
 * is set), then times the list, search and filter calls over HTTP (the app's fetch, no network) and
 * reports p50/p95 per call to the console and /tmp/gatehouse-users-scale.txt.
 *
 * It asserts no wall-clock time (DESIGN.md: benches report figures, tests never assert them). It
 * asserts what keeps the figures flat as tenants grow: the right totals, and query plans where every
 * page is read in index order (no sort of the whole tenant) except the searches, which sort only
 * their matches. The "cursor" calls reach deep pages by keyset (`cursor`, the nextCursor of the page
 * before, read once and not timed) and check they equal the offset pages. Not part of `npm test`; run it with:
 *
 *   npx vitest run --config bench/scale.vitest.config.ts            # SQLite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx vitest run --config bench/scale.vitest.config.ts
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { AdminPaths, type UsersListQuery } from '@gatehouse/shared/wire';
import { membersKeysetQueries, membersPageQueries, type MembersKeyset } from '../server/src/db/queries/admin-users';
import { MemberListMarks } from '../server/src/services/admin/member-marks';
import { describeDialects } from '../server/src/test/harness';
import { callAs, tenantWithAdmin } from '../server/src/test/admin-helpers';
import { queryPlan, refreshStatistics } from '../server/src/test/query-plan';

const USERS = Number(process.env.SCALE_USERS ?? 100_000);
const RUNS = Number(process.env.SCALE_RUNS ?? 30);
const REPORT = '/tmp/gatehouse-users-scale.txt';
const DAY = 86_400_000;

const FIRST = ['Ada', 'Alan', 'Barbara', 'Claude', 'Donald', 'Edsger', 'Frances', 'Grace', 'Hedy', 'John', 'Katherine', 'Linus', 'Margaret', 'Niklaus', 'Radia', 'Sophie', 'Tim', 'Vint'];
const LAST = ['Allen', 'Berners-Lee', 'Cerf', 'Dijkstra', 'Hamilton', 'Hopper', 'Johnson', 'Knuth', 'Lamarr', 'Liskov', 'Lovelace', 'McCarthy', 'Perlman', 'Ritchie', 'Shannon', 'Smith', 'Torvalds', 'Turing', 'Wilson', 'Wirth'];

/** Deterministic pseudo-random numbers, so every run seeds the same tenant. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describeDialects('users list at scale', (h) => {
  it(`lists, searches and filters ${USERS.toLocaleString('en')} users of one tenant from indexes`, async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const db = server.db;
    const now = Date.now();
    const random = prng(42);

    // ---- seed: users, then memberships (the triggers fill the read model), then MFA devices ----
    const seedStart = performance.now();
    const BATCH = 1000;
    let mfa = 0;
    let breached = 0;
    for (let start = 0; start < USERS; start += BATCH) {
      const users = [];
      const devices = [];
      for (let i = start; i < Math.min(USERS, start + BATCH); i++) {
        const isBreached = random() < 0.01;
        breached += isBreached ? 1 : 0;
        const id = `scale-${String(i).padStart(6, '0')}`;
        users.push({
          id, email: `user-${i}@scale.test`, username: null, name: `${FIRST[Math.floor(random() * FIRST.length)]} ${LAST[Math.floor(random() * LAST.length)]} ${i}`,
          password_hash: null, verified: random() < 0.9 ? 1 : 0, super_user: 0, disabled: 0, phone_number: null, address: null, job_title: null,
          profile_picture_id: null, metadata: null, last_tenant_id: admin.tenantId, created_at: now - Math.floor(random() * 400) * DAY,
          last_login: random() < 0.8 ? now - Math.floor(random() * 200) * DAY : null, is_breached_password: isBreached ? 1 : 0,
        });
        if (random() < 0.3) devices.push({ id: `dev-${i}`, user_id: id, type: 'authenticator', status: 'active', secret: null, email: null, last_used_step: null, created_at: now, verified_at: now });
      }
      mfa += devices.length;
      await db.insertInto('users').values(users).execute();
      await db.insertInto('user_tenants').values(users.map((u) => ({ user_id: u.id, tenant_id: admin.tenantId, created_at: u.created_at }))).execute();
      if (devices.length) await db.insertInto('mfa_devices').values(devices).execute();
    }
    // What an operator's database does on its own (PostgreSQL autovacuum, SQLite's optimize).
    await refreshStatistics(db, h.dialect);
    const seedSeconds = (performance.now() - seedStart) / 1000;

    // ---- the calls ----
    // A cursor call takes the nextCursor of the page before it (`after`, read once, not timed).
    // A `change` call renames a member before each run: the list's version moves, so PostgreSQL's page
    // marks (services/admin/member-marks.ts) are not used and the page is walked by offset, as the first
    // deep page after any change is. The other deep offset calls are read from the marks the first
    // of their runs built.
    const calls: { name: string; query: string; list: Partial<UsersListQuery>; sortsMatchesOnly?: boolean; after?: string; change?: boolean }[] = [
      { name: 'first page (name asc)', query: '', list: {} },
      { name: 'page 2,500 (offset 50,000)', query: '?pageOffset=2500', list: { page: 2500 } },
      { name: 'page 2,500 after a change', query: '?pageOffset=2500', list: { page: 2500 }, change: true },
      { name: 'last page', query: `?pageOffset=${Math.floor(USERS / 20)}`, list: { page: Math.floor(USERS / 20) } },
      { name: 'page 2,500, email desc', query: '?pageOffset=2500&sortBy=email&sortDirection=desc', list: { page: 2500, sortBy: 'email', sortDirection: 'desc' } },
      { name: 'page 2,500, email desc, after a change', query: '?pageOffset=2500&sortBy=email&sortDirection=desc', list: { page: 2500, sortBy: 'email', sortDirection: 'desc' }, change: true },
      { name: 'last page, createdAt desc', query: `?pageOffset=${Math.floor(USERS / 20)}&sortBy=createdAt&sortDirection=desc`, list: { page: Math.floor(USERS / 20), sortBy: 'createdAt', sortDirection: 'desc' } },
      { name: 'sort name desc', query: '?sortDirection=desc', list: { sortDirection: 'desc' } },
      { name: 'sort email desc', query: '?sortBy=email&sortDirection=desc', list: { sortBy: 'email', sortDirection: 'desc' } },
      { name: 'sort createdAt', query: '?sortBy=createdAt', list: { sortBy: 'createdAt' } },
      { name: 'sort verified desc', query: '?sortBy=verified&sortDirection=desc', list: { sortBy: 'verified', sortDirection: 'desc' } },
      { name: 'sort isLocked', query: '?sortBy=isLocked', list: { sortBy: 'isLocked' } },
      { name: 'sort provider', query: '?sortBy=provider', list: { sortBy: 'provider' } },
      { name: 'search name "grace ho"', query: '?filter=grace%20ho', list: { search: 'grace ho' }, sortsMatchesOnly: true },
      { name: 'search email "user-4242"', query: '?filter=user-4242', list: { search: 'user-4242' }, sortsMatchesOnly: true },
      { name: 'preset mfa-unenrolled', query: '?preset=mfa-unenrolled', list: { preset: 'mfa-unenrolled' } },
      { name: 'preset breached-passwords', query: '?preset=breached-passwords', list: { preset: 'breached-passwords' } },
      { name: 'preset inactive', query: '?preset=inactive', list: { preset: 'inactive' } },
      { name: 'preset mfa-unenrolled, page 1,000', query: '?preset=mfa-unenrolled&pageOffset=1000', list: { preset: 'mfa-unenrolled', page: 1000 } },
      { name: 'page 2,500 by cursor', query: '', list: {}, after: '?pageOffset=2499' },
      { name: 'page 2,500, email desc, cursor', query: '&sortBy=email&sortDirection=desc', list: { sortBy: 'email', sortDirection: 'desc' }, after: '?pageOffset=2499&sortBy=email&sortDirection=desc' },
      { name: 'last page by cursor', query: '', list: {}, after: `?pageOffset=${Math.floor(USERS / 20) - 1}` },
      { name: 'last page, createdAt desc, cursor', query: '&sortBy=createdAt&sortDirection=desc', list: { sortBy: 'createdAt', sortDirection: 'desc' }, after: `?pageOffset=${Math.floor(USERS / 20) - 1}&sortBy=createdAt&sortDirection=desc` },
      { name: 'preset inactive, page 1,000, cursor', query: '&preset=inactive', list: { preset: 'inactive' }, after: '?pageOffset=999&preset=inactive' },
      { name: 'stats', query: '', list: {} },
    ];

    const lines = [`users list at scale [${h.dialect}]: ${USERS.toLocaleString('en')} users in one tenant, seeded in ${seedSeconds.toFixed(1)} s; ${RUNS} runs per call`, ''];
    lines.push('call                                       p50 ms   p95 ms   total');
    for (const c of calls) {
      let cursor: string | undefined;
      if (c.after) {
        const before = await callAs(server, admin, 'GET', `${AdminPaths.teamMembers}${c.after}`);
        cursor = before.body.nextCursor as string;
        expect(cursor, c.name).toEqual(expect.any(String));
      }
      const path = c.name === 'stats' ? AdminPaths.teamStats : cursor ? `${AdminPaths.teamMembers}?cursor=${cursor}${c.query}` : `${AdminPaths.teamMembers}${c.query}`;
      const times: number[] = [];
      let total = 0;
      for (let run = 0; run < RUNS + 2; run++) {
        if (c.change) await db.updateTable('users').set({ name: `${run % 2 ? 'Zed' : 'Ada'} Changed` }).where('id', '=', 'scale-000001').execute();
        const t0 = performance.now();
        const res = await callAs(server, admin, 'GET', path);
        const ms = performance.now() - t0;
        expect(res.status, c.name).toBe(200);
        total = c.name === 'stats' ? res.body.totalUsers : res.body._metadata.totalItems;
        if (run >= 2) times.push(ms); // two warm-up runs
        // The first deep offset page of a list's version builds its page marks after answering (PostgreSQL): time the pages after it.
        if (run === 0) await sleep(250);
      }
      times.sort((a, b) => a - b);
      lines.push(`${c.name.padEnd(41)} ${percentile(times, 50).toFixed(1).padStart(7)}  ${percentile(times, 95).toFixed(1).padStart(7)}   ${total}`);
      if (c.name === 'first page (name asc)' || c.name === 'stats') expect(total).toBe(USERS + 1);
      if (c.name === 'preset mfa-unenrolled') expect(total).toBe(USERS + 1 - mfa);
      if (c.name === 'preset breached-passwords') expect(total).toBe(breached);
      if (cursor) {
        // The cursor page is the offset page after the one the cursor came from.
        const byOffset = await callAs(server, admin, 'GET', `${AdminPaths.teamMembers}${c.after!.replace(/pageOffset=(\d+)/, (_, n: string) => `pageOffset=${Number(n) + 1}`)}`);
        const byCursor = await callAs(server, admin, 'GET', path);
        expect(byCursor.body.items.map((u: { id: string }) => u.id), c.name).toEqual(byOffset.body.items.map((u: { id: string }) => u.id));
      }

      // The plan: the page comes out of an index in list order; only a search sorts, and only its matches.
      if (c.name === 'stats') continue;
      const list: UsersListQuery = { page: 0, pageSize: 20, sortBy: 'name', sortDirection: 'asc', ...c.list };
      if (cursor) {
        // A cursor page: one index range from the cursor (its key read back from the opaque cursor here, as only a test may).
        const [, , , way, key] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [number, string, string, MembersKeyset['way'], MembersKeyset['key']];
        const [range] = membersKeysetQueries(db, admin.tenantId, list, Date.now(), { way, key });
        const plan = await queryPlan(db, h.dialect, range!.selectAll().limit(21).compile());
        expect(plan, `${c.name}\n${plan}`).not.toMatch(h.dialect === 'postgres' ? /\bSort\b/ : /TEMP B-TREE/);
        expect(plan, `${c.name}\n${plan}`).toMatch(h.dialect === 'postgres' ? /Index Cond: .*ROW\(/ : /SEARCH .*\([a-z_,]+\)[<>]\(\?/);
        continue;
      }
      const { page, count } = membersPageQueries(db, admin.tenantId, list, Date.now());
      const counted = await count.executeTakeFirst();
      const listed = page(Number(counted?.n ?? 0));
      const plan = await queryPlan(db, h.dialect, (listed.keys ?? listed.rows).compile());
      if (!c.sortsMatchesOnly) {
        expect(plan, `${c.name}\n${plan}`).not.toMatch(h.dialect === 'postgres' ? /\bSort\b/ : /TEMP B-TREE/);
        expect(plan, `${c.name}\n${plan}`).toMatch(/user_tenants_by_/);
      }
      // A deep page skips over the covering index only (no row read for the skipped ones), except
      // the inactive preset, whose activity is not in the name index.
      if (listed.keys && c.list.preset !== 'inactive') expect(plan, `${c.name}\n${plan}`).toMatch(h.dialect === 'postgres' ? /Index Only Scan/ : /COVERING INDEX/);
      // PostgreSQL reads the page's rows in the same statement: the ids as one array, each row by primary key.
      if (listed.keys && listed.rows) {
        const rowsPlan = await queryPlan(db, h.dialect, listed.rows.compile());
        expect(rowsPlan, `${c.name}\n${rowsPlan}`).toMatch(/Nested Loop[\s\S]*Function Scan on unnest[\s\S]*Index Scan using user_tenants_by_id/);
      }
      // From page marks, a deep page seeks the covering index to the mark before it and skips fewer rows than lie between two marks.
      if (listed.keys && MemberListMarks.covers(list) && !c.change) {
        const marks = new MemberListMarks({ minTotal: 0 });
        await marks.build(db, admin.tenantId, list.sortBy, total);
        const marked = page(total, marks.anchors(admin.tenantId, list.sortBy, String(counted?.v), total));
        expect(marked, c.name).toMatchObject({ marked: true });
        expect(marked.skip, c.name).toBeLessThan(1000);
        const markedPlan = await queryPlan(db, h.dialect, (marked.keys ?? marked.rows!).compile());
        expect(markedPlan, `${c.name}\n${markedPlan}`).toMatch(h.dialect === 'postgres' ? /Index (Only )?Scan using user_tenants_by_[\s\S]*Index Cond: .*ROW\(/ : /SEARCH .*USING (COVERING )?INDEX user_tenants_by_\w+ .*\([a-z_,]+\)[<>]\(\?/);
      }
    }
    const report = lines.join('\n');
    console.log(`\n${report}\n`);
    (h.dialect === 'sqlite' ? writeFileSync : appendFileSync)(REPORT, `${report}\n\n`);
  }, 900_000);
});

