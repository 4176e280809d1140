import { expect, it } from 'vitest';
import { tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { oktaUser, scim, scimConnection, SCHEMA_ERROR, SCHEMA_GROUP, SCHEMA_USER } from '../../test/scim-helpers';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const ids = (body: { Resources: { id: string }[] }) => body.Resources.map((r) => r.id);

describeDialects('SCIM POST /.search (RFC 7644 section 3.4.3)', (harness) => {
  async function setup() {
    const time = movableClock();
    const server = await harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' }, { clock: time });
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const users: { id: string; userName: string }[] = [];
    // A second apart: lists answer oldest first.
    for (const [i, name] of ['ann.search', 'bo.search', 'ann.other'].entries()) {
      time.advance(1000);
      users.push((await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail(name), { externalId: `ext-${i}` }))).body);
    }
    const group = (await scim(server, token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: 'Searchers', externalId: 'grp-ext', members: [{ value: users[0]!.id }] })).body;
    return { server, token, users, group };
  }

  it('Users/.search answers as GET Users with the same filter, attributes and startIndex/count', async () => {
    const { server, token, users } = await setup();
    const filter = 'userName sw "ann."';
    const get = await scim(server, token, 'GET', `/Users?filter=${encodeURIComponent(filter)}&attributes=externalId&startIndex=2&count=1`);
    const post = await scim(server, token, 'POST', '/Users/.search', { schemas: [SEARCH], filter, attributes: ['externalId'], startIndex: 2, count: 1 });
    expect(post.status).toBe(200);
    expect(post.headers.get('content-type')).toContain('application/scim+json');
    expect(post.body).toEqual(get.body);
    expect(post.body).toMatchObject({ totalResults: 2, startIndex: 2, itemsPerPage: 1 });
    expect(Object.keys(post.body.Resources[0]).sort()).toEqual(['externalId', 'id', 'schemas']);
    const excluded = await scim(server, token, 'POST', '/Users/.search', { schemas: [SEARCH], filter: `externalId eq "ext-1"`, excludedAttributes: ['emails', 'name'], sortBy: 'userName', sortOrder: 'descending' });
    expect(ids(excluded.body)).toEqual([users[1]!.id]);
    expect(excluded.body.Resources[0]).not.toHaveProperty('emails');
    expect(excluded.body.Resources[0]).toHaveProperty('userName', users[1]!.userName);
  });

  it('Groups/.search finds by displayName and externalId', async () => {
    const { server, token, group } = await setup();
    for (const filter of ['displayName eq "searchers"', 'externalId eq "grp-ext"']) {
      const res = await scim(server, token, 'POST', '/Groups/.search', { schemas: [SEARCH], filter });
      expect([res.status, ids(res.body)], filter).toEqual([200, [group.id]]);
    }
  });

  it('the root /.search lists users then groups as one list, paged across both, and a filter attribute only users have matches no group', async () => {
    const { server, token, users, group } = await setup();
    const all = await scim(server, token, 'POST', '/.search', { schemas: [SEARCH], attributes: ['externalId'] });
    expect(all.status).toBe(200);
    expect(all.body.totalResults).toBe(4);
    expect(ids(all.body)).toEqual([...users.map((u) => u.id), group.id]);
    expect(all.body.Resources.map((r: { schemas: string[] }) => r.schemas[0])).toEqual([SCHEMA_USER, SCHEMA_USER, SCHEMA_USER, SCHEMA_GROUP]);
    expect(all.body.Resources[3]).toEqual({ schemas: [SCHEMA_GROUP], id: group.id, externalId: 'grp-ext' });
    const page = await scim(server, token, 'POST', '/.search', { schemas: [SEARCH], startIndex: 3, count: 2 });
    expect([page.body.totalResults, page.body.startIndex, ids(page.body)]).toEqual([4, 3, [users[2]!.id, group.id]]);
    const usersOnly = await scim(server, token, 'POST', '/.search', { schemas: [SEARCH], filter: 'userName sw "bo."' });
    expect([usersOnly.body.totalResults, ids(usersOnly.body)]).toEqual([1, [users[1]!.id]]);
    const unknown = await scim(server, token, 'POST', '/.search', { schemas: [SEARCH], filter: 'nosuch eq "x"' });
    expect([unknown.status, unknown.body.scimType]).toEqual([400, 'invalidFilter']);
  });

  it('refuses a body that is not a SearchRequest, naming the field, in the SCIM error schema', async () => {
    const { server, token } = await setup();
    const cases: [unknown, string, string][] = [
      [{ filter: 'userName pr' }, 'invalidSyntax', 'schemas'],
      [{ schemas: [SEARCH], attributes: 'userName' }, 'invalidSyntax', 'attributes'],
      [{ schemas: [SEARCH], attributes: ['userName,emails'] }, 'invalidValue', 'attributes'],
      [{ schemas: [SEARCH], count: 'ten' }, 'invalidSyntax', 'count'],
      [{ schemas: [SEARCH], sortOrder: 'sideways' }, 'invalidSyntax', 'sortOrder'],
      [{ schemas: [SEARCH], filter: 'userName eq' }, 'invalidFilter', ''],
    ];
    for (const [body, scimType, field] of cases) {
      for (const path of ['/Users/.search', '/Groups/.search', '/.search']) {
        const res = await scim(server, token, 'POST', path, body);
        expect([res.status, res.body.schemas, res.body.scimType], `${path} ${JSON.stringify(body)}`).toEqual([400, [SCHEMA_ERROR], scimType]);
        expect(res.body.detail).toContain(field);
      }
    }
    expect((await scim(server, null, 'POST', '/.search', { schemas: [SEARCH] })).status).toBe(401);
  });
});
