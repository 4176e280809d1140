/**
 * The vendor's applications (issue 15; seed 001 section 3 "Application"), managed by operators
 * (super users): name, URL, logo, access type and the hosted-login client linked to it.
 *
 * - A logo is an https address, or an uploaded image (png, jpeg, gif or webp whose bytes match their
 *   type, at most ACCOUNT_LOGO_MAX_BYTES; never SVG) served from an immutable public URL, as account
 *   logos are. A new upload gets a new URL; the replaced one answers 404.
 * - A client is linked to at most one application, and must be registered (database, OAUTH_CLIENTS_FILE
 *   or dev mode): sign-in through it then follows the application's access type (./access.ts).
 * - Every change writes an operator audit row with the old and new values (a logo's bytes never: an
 *   uploaded logo is recorded by its URL).
 */
import { ApplicationErrorCodes, ApplicationPaths, type ApplicationAccessType, type VendorApplication, type VendorApplicationBody, type VendorApplicationPatch } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import {
  deleteApplication,
  deleteApplicationLogosExcept,
  findApplication,
  findApplicationByClient,
  findApplicationLogo,
  insertApplication,
  insertApplicationLogo,
  listApplications,
  updateApplication,
  type ApplicationLogoRow,
  type ApplicationRow,
} from '../../db/queries/applications';
import { isUniqueViolation } from '../../db/unique-violation';
import { AppError } from '../../errors';
import { decodeLogo } from '../account/settings';
import type { AdminCaller } from '../admin/access';
import type { ClientRegistry } from '../oauth/clients';
import { OperatorAuditActions, recordOperatorAudit } from '../operator/audit';
import { OperatorErrors } from '../operator/errors';

export interface ApplicationService {
  list(): Promise<VendorApplication[]>;
  get(id: string): Promise<VendorApplication>;
  create(caller: AdminCaller, body: VendorApplicationBody): Promise<VendorApplication>;
  update(caller: AdminCaller, id: string, patch: VendorApplicationPatch): Promise<VendorApplication>;
  /** Removes the application with its logo and every assignment to it. */
  remove(caller: AdminCaller, id: string): Promise<void>;
  getLogo(logoId: string): Promise<ApplicationLogoRow | undefined>;
}

const notFound = () => OperatorErrors.notFound('Application');
const clientLinked = (clientId: string, other: string) =>
  new AppError(ApplicationErrorCodes.clientLinked, 409, `clientId: the client "${clientId}" is already linked to the application "${other}"`, { field: 'clientId' });

export function createApplicationService(deps: { db: Db; clock: Clock; config: Pick<Config, 'publicUrl'>; clients: Pick<ClientRegistry, 'find'> }): ApplicationService {
  const { db, clock, config, clients } = deps;
  const logoUrl = (row: ApplicationRow) => (row.logo_id ? `${config.publicUrl}${ApplicationPaths.logo.replace('{logoId}', row.logo_id)}` : row.logo_url);

  const toWire = (row: ApplicationRow): VendorApplication => ({
    id: row.id,
    name: row.name,
    url: row.url,
    logo: logoUrl(row),
    accessType: row.access_type as ApplicationAccessType,
    clientId: row.client_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });

  async function find(id: string): Promise<ApplicationRow> {
    const row = await findApplication(db, id);
    if (!row) throw notFound();
    return row;
  }

  /** The client to link: registered, and linked to no other application. */
  async function checkClient(clientId: string, self: string | null): Promise<void> {
    if (!(await clients.find(clientId))) throw OperatorErrors.field('clientId', `no hosted-login client "${clientId}" is registered (npm run gatehouse -- clients add, or the Operator's OAuth applications)`);
    const other = await findApplicationByClient(db, clientId);
    if (other && other.id !== self) throw clientLinked(clientId, other.name);
  }

  /** The logo columns for a body's `logo`: an address, an upload (stored now), or none. */
  async function logoColumns(trx: Db, applicationId: string, logo: string | null, now: number): Promise<{ logo_url: string | null; logo_id: string | null }> {
    if (logo === null) return { logo_url: null, logo_id: null };
    if (!logo.startsWith('data:')) return { logo_url: logo, logo_id: null };
    const { mime, bytes } = decodeLogo(logo);
    const id = newId();
    await insertApplicationLogo(trx, { id, application_id: applicationId, mime, bytes, created_at: now });
    return { logo_url: null, logo_id: id };
  }

  /** A unique index on client_id settles two links racing for the same client. */
  async function linking<T>(clientId: string | null | undefined, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (clientId && isUniqueViolation(err)) throw clientLinked(clientId, 'another');
      throw err;
    }
  }

  return {
    list: async () => (await listApplications(db)).map(toWire),
    get: async (id) => toWire(await find(id)),
    getLogo: (logoId) => findApplicationLogo(db, logoId),

    async create(caller, body) {
      if (body.clientId) await checkClient(body.clientId, null);
      const id = newId();
      const now = clock.now();
      const created = await linking(body.clientId, () =>
        db.transaction().execute(async (trx) => {
          await insertApplication(trx, { id, name: body.name, url: body.url, logo_url: null, logo_id: null, access_type: body.accessType ?? 'FREE_ACCESS', client_id: body.clientId ?? null, created_at: now, updated_at: now });
          if (body.logo) {
            const logo = await logoColumns(trx, id, body.logo, now);
            await updateApplication(trx, id, logo);
          }
          const app = toWire((await findApplication(trx, id))!);
          await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.vendorApplicationCreated, `Application "${app.name}" created`, { applicationId: id, new: app });
          return app;
        }),
      );
      return created;
    },

    async update(caller, id, patch) {
      const before = await find(id);
      if (patch.clientId) await checkClient(patch.clientId, id);
      const now = clock.now();
      return linking(patch.clientId, () =>
        db.transaction().execute(async (trx) => {
          let logo: { logo_url: string | null; logo_id: string | null } | undefined;
          if (patch.logo !== undefined) {
            logo = await logoColumns(trx, id, patch.logo, now);
            await deleteApplicationLogosExcept(trx, id, logo.logo_id);
          }
          await updateApplication(trx, id, { name: patch.name, url: patch.url, access_type: patch.accessType, client_id: patch.clientId, ...logo });
          const after = toWire((await findApplication(trx, id))!);
          const old = toWire(before);
          const changed = (Object.keys(after) as (keyof VendorApplication)[]).filter((k) => old[k] !== after[k]);
          // A save that changes nothing writes nothing more (no audit row, updatedAt kept).
          if (changed.length === 0) return old;
          await updateApplication(trx, id, { updated_at: now });
          const pick = (a: VendorApplication) => Object.fromEntries(changed.map((k) => [k, a[k]]));
          await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.vendorApplicationUpdated, `Application "${after.name}" updated: ${changed.join(', ')}`, { applicationId: id, old: pick(old), new: pick(after) });
          return { ...after, updatedAt: now };
        }),
      );
    },

    async remove(caller, id) {
      const before = await find(id);
      await db.transaction().execute(async (trx) => {
        if (!(await deleteApplication(trx, id))) throw notFound();
        await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.vendorApplicationDeleted, `Application "${before.name}" deleted, with its assignments`, { applicationId: id, old: toWire(before) });
      });
    },
  };
}
