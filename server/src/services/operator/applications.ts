/**
 * OAuth applications (issue 13): the hosted-login clients `npm run gatehouse -- clients` manages,
 * through the API, with the same checks (services/oauth/clients.ts). Clients of OAUTH_CLIENTS_FILE
 * (and dev mode's demo-spa) are listed but read-only: they change in their file (409 ER-04007). A
 * confidential client's secret is answered once, when it is made (creation or the new-secret call);
 * only its SHA-256 is stored, and the audit log records only that it changed.
 */
import type { Application, ApplicationBody, ApplicationPatch } from '@gatehouse/shared/wire';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { sha256 } from '../../crypto';
import type { Db } from '../../db';
import { findOAuthClient, updateOAuthClient } from '../../db/queries/oauth';
import { checkClient, newClientSecret, type ClientRegistry, type OAuthClient } from '../oauth/clients';
import type { AdminCaller } from '../admin/access';
import { OperatorAuditActions, recordOperatorAudit } from './audit';
import { OperatorErrors } from './errors';
import { ErrorCodes } from '@gatehouse/shared/wire';
import { AppError } from '../../errors';

export interface ApplicationService {
  list(): Promise<Application[]>;
  get(clientId: string): Promise<Application>;
  /** The new application; a confidential one with its secret (this answer only). */
  create(caller: AdminCaller, body: z.infer<typeof ApplicationBody>): Promise<Application>;
  update(caller: AdminCaller, clientId: string, patch: z.infer<typeof ApplicationPatch>): Promise<Application>;
  remove(caller: AdminCaller, clientId: string): Promise<void>;
  /** A new secret for a confidential database application; the old one stops working at once. */
  newSecret(caller: AdminCaller, clientId: string): Promise<Application>;
}

function toWire(client: OAuthClient): Application {
  return {
    clientId: client.clientId,
    name: client.name,
    redirectUris: client.anyLoopback ? [] : client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    confidential: client.secretHash !== null,
    source: client.source,
  };
}

/** A check's refusal: 400 with the sentence checkClient wrote (it names the field or URI). */
const invalid = (message: string) => new AppError(ErrorCodes.validation, 400, message);

export function createApplicationService(deps: { db: Db; clock: Clock; registry: ClientRegistry; config: { clientId: string } }): ApplicationService {
  const { db, clock, registry, config } = deps;

  async function find(clientId: string): Promise<OAuthClient> {
    const client = await registry.find(clientId);
    if (!client) throw OperatorErrors.notFound('Application');
    return client;
  }

  async function editable(clientId: string): Promise<OAuthClient> {
    const client = await find(clientId);
    if (client.source !== 'database') {
      throw OperatorErrors.readOnly(`Application "${clientId}" comes from ${client.source === 'file' ? 'OAUTH_CLIENTS_FILE' : 'dev mode'}; change it there`);
    }
    return client;
  }

  return {
    list: async () => (await registry.list()).map(toWire),
    get: async (clientId) => toWire(await find(clientId)),

    async create(caller, body) {
      if (await registry.find(body.clientId)) throw OperatorErrors.keyTaken('an application with the clientId', body.clientId, 'clientId');
      const { client, secret } = await registry.add({ clientId: body.clientId, name: body.name, redirectUris: body.redirectUris, postLogoutRedirectUris: body.postLogoutRedirectUris, confidential: body.confidential ?? false }, invalid);
      const created = toWire(client);
      await recordOperatorAudit(db, clock, caller, OperatorAuditActions.applicationCreated, `Application "${client.clientId}" created`, { clientId: client.clientId, new: created });
      return secret ? { ...created, clientSecret: secret } : created;
    },

    async update(caller, clientId, patch) {
      const before = await editable(clientId);
      const checked = checkClient(
        {
          clientId,
          name: patch.name ?? before.name,
          redirectUris: patch.redirectUris ?? before.redirectUris,
          postLogoutRedirectUris: patch.postLogoutRedirectUris ?? before.postLogoutRedirectUris,
          secretHash: null,
        },
        config.clientId,
        invalid,
      );
      await updateOAuthClient(db, clientId, { name: checked.name, redirect_uris: JSON.stringify(checked.redirectUris), post_logout_redirect_uris: JSON.stringify(checked.postLogoutRedirectUris), updated_at: clock.now() });
      const after = toWire(await find(clientId));
      await recordOperatorAudit(db, clock, caller, OperatorAuditActions.applicationUpdated, `Application "${clientId}" updated`, { clientId, old: toWire(before), new: after });
      return after;
    },

    async remove(caller, clientId) {
      const before = await editable(clientId);
      await registry.remove(clientId);
      await recordOperatorAudit(db, clock, caller, OperatorAuditActions.applicationDeleted, `Application "${clientId}" deleted`, { clientId, old: toWire(before) });
    },

    async newSecret(caller, clientId) {
      const before = await editable(clientId);
      if (!before.secretHash) throw OperatorErrors.field('clientId', `"${clientId}" is a public application (PKCE only) and has no secret`);
      const secret = newClientSecret();
      // Stored as the bare hex digest, as checkClient stores the CLI's.
      const hash = sha256(secret);
      await updateOAuthClient(db, clientId, { secret_hash: hash, updated_at: clock.now() });
      if ((await findOAuthClient(db, clientId))?.secret_hash !== hash) throw OperatorErrors.notFound('Application');
      await recordOperatorAudit(db, clock, caller, OperatorAuditActions.applicationSecretRotated, `Application "${clientId}" given a new secret (the old one no longer works)`, { clientId, secretRotated: true });
      return { ...toWire(await find(clientId)), clientSecret: secret };
    },
  };
}
