/**
 * Just-in-time provisioning of an SSO sign-in: the user the IdP vouched for, in the tenant that owns
 * the email's validated domain, with the configuration's default roles and the roles its group
 * mappings give the asserted groups.
 */
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { raiseUserCreated } from '../connectivity/user-events';
import { listSsoDomains, listSsoGroupMappings, tenantRoleIds, type SsoConfigurationRow } from '../../db/queries/sso-configurations';
import { changeUserRoles, findSsoIdentity, saveSsoIdentity } from '../../db/queries/sso-logins';
import { addUserToTenant, hasMembership } from '../../db/queries/tenants';
import { findUserByEmail, findUserById, insertUser, updateUser, type UserRow } from '../../db/queries/users';
import { parseIds } from './configurations';
import type { SsoIdentity } from './saml';
import { emailDomain } from './urls';
import type { EmailDomainRestrictionService } from '../security/email-domain-restrictions';
import type { EntitlementsService } from '../entitlements';

/** A sign-in the IdP proved but we refuse; `message` is for the server log only. */
export class ProvisioningRefused extends Error {
  override name = 'ProvisioningRefused';
}

/** The roles a sign-in grants: the configuration's defaults (else the tenant's default roles) and the mapped groups' roles. */
async function rolesFor(db: Db, row: SsoConfigurationRow, groups: readonly string[]): Promise<string[]> {
  let defaults = parseIds(row.default_role_ids);
  if (defaults.length === 0) {
    defaults = (await db.selectFrom('roles').select('id').where('tenant_id', '=', row.tenant_id).where('is_default', '=', 1).execute()).map((r) => r.id);
  }
  const wanted = new Set(groups);
  const mapped = (await listSsoGroupMappings(db, [row.id])).filter((m) => wanted.has(m.group_name)).flatMap((m) => parseIds(m.role_ids));
  // Roles deleted since the mapping was saved drop out here; only the tenant's own roles are granted.
  return tenantRoleIds(db, row.tenant_id, [...new Set([...defaults, ...mapped])]);
}

/** Finds, links or creates the user of a proven SSO identity and applies the role mapping. */
export async function provisionSsoUser(
  deps: { db: Db; clock: Clock; emailDomains?: Pick<EmailDomainRestrictionService, 'assertAllowed'>; seats?: Pick<EntitlementsService, 'assertSeatsAvailable'> },
  row: SsoConfigurationRow,
  identity: SsoIdentity,
): Promise<UserRow> {
  const { db, clock } = deps;
  const now = clock.now();
  const domain = emailDomain(identity.email);
  // An IdP speaks only for the domains its tenant proved: never for anyone else's addresses.
  const domains = await listSsoDomains(db, [row.id]);
  if (!domain || !domains.some((d) => d.validated === 1 && d.domain === domain)) {
    throw new ProvisioningRefused(`the asserted email's domain ${domain ?? '(none)'} is not a validated domain of this configuration`);
  }

  const known = await findSsoIdentity(db, row.id, identity.subject);
  let user = known ? await findUserById(db, known.user_id) : await findUserByEmail(db, identity.email);
  // Joining the tenant (a new account, or an existing one not yet a member): the tenant's
  // email-domain restrictions decide first (403 ER-02803), before anything is created.
  if (!user || !(await hasMembership(db, user.id, row.tenant_id))) {
    await deps.emailDomains?.assertAllowed(row.tenant_id, identity.email);
    // And the seat limit of the tenant's plan (403 ER-03009).
    await deps.seats?.assertSeatsAvailable(row.tenant_id, 1, user ? { joiningUserId: user.id } : {});
  }
  if (!user) {
    const id = newId();
    try {
      await db.transaction().execute(async (trx) => {
        await deps.seats?.assertSeatsAvailable(row.tenant_id, 1, { trx });
        await insertUser(trx, {
          id, email: identity.email, username: null, name: identity.name || identity.email.split('@')[0]!, password_hash: null, verified: 1, super_user: 0, disabled: 0,
          phone_number: null, address: null, job_title: null, profile_picture_id: null, metadata: null, last_tenant_id: row.tenant_id, created_at: now, last_login: null,
        });
        await addUserToTenant(trx, id, row.tenant_id, now);
        await raiseUserCreated(trx, { tenantId: row.tenant_id, user: { id, email: identity.email, name: identity.name || identity.email.split('@')[0]! }, source: 'sso', actor: { userId: id, email: identity.email } }, now);
      });
    } catch (err) {
      // A parallel first sign-in of the same person created the account a moment ago.
      if (!(await findUserByEmail(db, identity.email))) throw err;
    }
    user = (await findUserByEmail(db, identity.email))!;
  }
  if (user.disabled === 1) throw new ProvisioningRefused('the user is disabled');
  if (!(await hasMembership(db, user.id, row.tenant_id))) {
    const joining = user;
    try {
      // Counted again under the tenant's lock, in the transaction that adds them: existing
      // accounts signing in at once cannot take the last seat together.
      await db.transaction().execute(async (trx) => {
        await deps.seats?.assertSeatsAvailable(row.tenant_id, 1, { joiningUserId: joining.id, trx });
        if (!(await hasMembership(trx, joining.id, row.tenant_id))) {
          await addUserToTenant(trx, joining.id, row.tenant_id, now);
          await raiseUserCreated(trx, { tenantId: row.tenant_id, user: joining, source: 'sso', actor: { userId: joining.id, email: joining.email } }, now);
        }
      });
    } catch (err) {
      if (!(await hasMembership(db, user.id, row.tenant_id))) throw err;
    }
  }

  const granted = await rolesFor(db, row, identity.groups);
  const before = parseIds(known?.granted_role_ids ?? null);
  // Roles an earlier SSO sign-in granted and the IdP's groups no longer give are taken away again;
  // roles an admin granted by hand are left alone.
  await changeUserRoles(db, user.id, row.tenant_id, granted, before.filter((id) => !granted.includes(id)));
  await saveSsoIdentity(db, { config_id: row.id, subject: identity.subject, user_id: user.id, granted_role_ids: JSON.stringify(granted), created_at: now, last_login_at: now });
  // The IdP proved the address; the session starts in the tenant that owns the domain.
  await updateUser(db, user.id, { last_tenant_id: row.tenant_id, ...(user.verified !== 1 ? { verified: 1 } : {}) });
  return (await findUserById(db, user.id))!;
}
