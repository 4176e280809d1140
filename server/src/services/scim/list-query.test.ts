/**
 * Lists at scale (both dialects): the exact lookups identity providers make (userName, externalId and
 * id for Users; displayName, externalId and id for Groups) run in SQL and never scan the tenant, so
 * they still answer where a scan is refused; unfiltered pages and totals come from SQL; any other
 * filter is matched in memory only up to the bound, past which it is tooMany. The bound is 3 here
 * (FILTER_SCAN_LIMIT, 20,000, in the service).
 */
import { expect, it } from 'vitest';
import { findScimConnectionById } from '../../db/queries/scim-connections';
import { narrowedScimResources } from '../../db/queries/scim-resources';
import { queryPlan, refreshStatistics } from '../../test/query-plan';
import { tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { oktaUser, scim, scimConnection, SCHEMA_GROUP } from '../../test/scim-helpers';
import type { ScimCaller } from './context';
import { isScimError } from './errors';
import { createScimGroupService } from './groups';
import type { ScimListPage } from './list-query';
import { createScimUserService } from './users';

describeDialects('SCIM lists at scale', (harness) => {
  async function setup() {
    const time = movableClock();
    const server = await harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' }, { clock: time });
    const admin = await tenantWithAdmin(server);
    const conn = await scimConnection(server, admin);
    const users: { id: string; userName: string }[] = [];
    // A second apart, so oldest first is the order made.
    for (let i = 0; i < 5; i += 1, time.advance(1000)) users.push((await scim(server, conn.token, 'POST', '/Users', oktaUser(uniqueEmail(`scale${i}`), { externalId: `ext-${i}` }))).body);
    const groups: { id: string; displayName: string }[] = [];
    for (let i = 0; i < 4; i += 1, time.advance(1000)) groups.push((await scim(server, conn.token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: `Team ${i}`, externalId: `g-${i}` })).body);
    const caller: ScimCaller = { connection: (await findScimConnectionById(server.db, conn.id))!, tenantId: admin.tenantId, ip: null, userAgent: null, baseUrl: 'https://id.example.com/scim/v2' };
    const clock = { now: () => Date.now() };
    const userService = createScimUserService({ db: server.db, clock, scanLimit: 3 });
    const groupService = createScimGroupService({ db: server.db, clock, scanLimit: 3 });
    return { server, caller, users, groups, userService, groupService };
  }
  const page = { startIndex: 1, count: 200 };
  const idsOf = (p: ScimListPage) => p.resources.map((r) => r.id);
  async function scimTypeOf(run: () => Promise<unknown>): Promise<string | undefined> {
    try {
      await run();
    } catch (err) {
      if (isScimError(err)) return `${err.status} ${err.scimType}: ${err.detail}`;
      throw err;
    }
    return undefined;
  }

  it('answers userName, externalId and id eq (alone or in an and chain) from SQL past the scan bound', async () => {
    const { caller, users, userService } = await setup();
    const u = users[3]!;
    for (const filter of [`userName eq "${u.userName.toUpperCase()}"`, 'externalId eq "ext-3"', `id eq "${u.id}"`, `userName eq "${u.userName}" and name.givenName pr`, `emails[type eq "work"] and externalId eq "ext-3"`]) {
      expect(idsOf(await userService.list(caller, { filter, ...page })), filter).toEqual([u.id]);
    }
    // externalId compares exactly: another case is not the same externalId.
    expect((await userService.list(caller, { filter: 'externalId eq "EXT-3"', ...page })).total).toBe(0);
    expect((await userService.list(caller, { filter: 'userName eq "nobody@example.com"', ...page })).total).toBe(0);
  });

  it('answers displayName, externalId and id eq on Groups from SQL past the scan bound', async () => {
    const { caller, groups, groupService } = await setup();
    const g = groups[2]!;
    for (const filter of ['displayName eq "team 2"', 'externalId eq "g-2"', `id eq "${g.id}"`]) {
      expect(idsOf(await groupService.list(caller, { filter, ...page })), filter).toEqual([g.id]);
    }
  });

  it('pages an unfiltered list in SQL: the total counts every live resource, a user removed from the tenant another way is neither listed nor counted', async () => {
    const { server, caller, users, groups, userService, groupService } = await setup();
    const second = await userService.list(caller, { startIndex: 2, count: 2 });
    expect([second.total, idsOf(second)]).toEqual([5, [users[1]!.id, users[2]!.id]]);
    expect(idsOf(await userService.list(caller, { startIndex: 5, count: 10 }))).toEqual([users[4]!.id]);
    expect(idsOf(await userService.list(caller, { startIndex: 9, count: 10 }))).toEqual([]);
    expect((await userService.list(caller, { startIndex: 1, count: 0 })).total).toBe(5);
    await server.db.deleteFrom('user_tenants').where('tenant_id', '=', caller.tenantId).where('user_id', '=', users[0]!.id).execute();
    const after = await userService.list(caller, { startIndex: 1, count: 2 });
    expect([after.total, idsOf(after)]).toEqual([4, [users[1]!.id, users[2]!.id]]);
    const g = await groupService.list(caller, { startIndex: 4, count: 5 });
    expect([g.total, idsOf(g)]).toEqual([4, [groups[3]!.id]]);
  });

  it('matches any other filter in memory only up to the bound: past it, tooMany naming the filters that work', async () => {
    const { server, caller, users, userService, groupService } = await setup();
    const refused = await scimTypeOf(() => userService.list(caller, { filter: 'name.givenName sw "scale"', ...page }));
    expect(refused).toMatch(/^400 tooMany: .*more than 3 Users.*userName/);
    expect(await scimTypeOf(() => userService.list(caller, { filter: `displayName eq "x"`, ...page }))).toMatch(/^400 tooMany/);
    expect(await scimTypeOf(() => groupService.list(caller, { filter: 'displayName sw "Team"', ...page }))).toMatch(/^400 tooMany: .*more than 3 Groups.*displayName/);
    // Within the bound (the default one here) the same kind of filter is answered.
    const roomy = createScimUserService({ db: server.db, clock: { now: () => Date.now() } });
    const found = await roomy.list(caller, { filter: 'emails.value co "scale"', ...page });
    expect([found.total, idsOf(found)]).toEqual([5, users.map((u) => u.id)]);
  });

  it('reads a narrowed list through an index: externalId by scim_resources_external_id (migration 031), userName/displayName by scim_resources_name', async () => {
    const { server, caller } = await setup();
    // A tenant of some size (rows only, enough for the planners' statistics to tell the indexes apart).
    const now = Date.now();
    for (let batch = 0; batch < 4; batch += 1) {
      const rows = Array.from({ length: 500 }, (_, i) => {
        const n = batch * 500 + i;
        return { connection_id: caller.connection.id, tenant_id: caller.tenantId, resource_type: 'User', resource_id: `bulk-${n}`, name_key: `bulk-${n}@example.com`, external_id: `bulk-ext-${n}`, attributes: '{}', version: 1, created_at: now + n, updated_at: now + n };
      });
      await server.db.insertInto('scim_resources').values(rows).execute();
    }
    await refreshStatistics(server.db, harness.dialect);
    const planOf = (narrowing: Parameters<typeof narrowedScimResources>[3]) => queryPlan(server.db, harness.dialect, narrowedScimResources(server.db, caller.tenantId, 'User', narrowing).compile());
    expect(await planOf({ column: 'external_id', value: 'ext-3' })).toContain('scim_resources_external_id');
    expect(await planOf({ column: 'name_key', value: 'someone@example.com' })).toContain('scim_resources_name');
  });
});
