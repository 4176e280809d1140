/**
 * The vendor's billing configuration (issue 13): the Stripe keys, the plan rules (allowPlanDowngrade,
 * allowPlanCancellation), the trial-end option and the default plan. Operators read and change it;
 * billing reads it at each call. The secret key and the webhook secret are sealed at rest with
 * GATEHOUSE_KEY_ENCRYPTION_KEY when it is set, never answered (only whether they are set) and never
 * written to the audit log. The Stripe provider is active (status '1') while a secret key is set.
 */
import { PAYMENT_PROVIDER_ACTIVE, PAYMENT_PROVIDER_STRIPE, type TrialEndOption } from '@gatehouse/shared/wire';
import type { BillingConfiguration, BillingConfigurationBody } from '@gatehouse/shared/wire';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { decrypt, encrypt } from '../../crypto';
import type { Db } from '../../db';
import { findBillingConfig, saveBillingConfig, type BillingConfigRow } from '../../db/queries/billing-config';
import { findPlan } from '../../db/queries/billing-plans';
import { Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';

export const BILLING_CONFIGURATION_UPDATED = 'operator.billing-configuration.updated';

/** The configuration billing works with, secrets opened. */
export interface VendorBilling {
  secretKey: string | null;
  webhookSecret: string | null;
  publishableKey: string | null;
  active: boolean;
  allowPlanDowngrade: boolean;
  allowPlanCancellation: boolean;
  trialEndOption: TrialEndOption;
  defaultPlanId: string | null;
  updatedAt: number | null;
}

export interface BillingConfigurationService {
  /** The configuration with its secrets opened, for billing's own use only. */
  vendor(): Promise<VendorBilling>;
  /** The operator's view: no secret, only whether each is set. */
  get(): Promise<BillingConfiguration>;
  /** Saves the operator's change; a secret left out (undefined) is kept, null clears it. Audited. */
  save(caller: AdminCaller, body: z.infer<typeof BillingConfigurationBody>): Promise<BillingConfiguration>;
}

export function createBillingConfiguration(deps: { db: Db; clock: Clock; config: Pick<Config, 'keyEncryptionKey'>; apiBase: string }): BillingConfigurationService {
  const { db, clock, config } = deps;
  const seal = (secret: string) => (config.keyEncryptionKey ? encrypt(secret, config.keyEncryptionKey) : secret);
  const open = (stored: string | null) => (stored ? decrypt(stored, config.keyEncryptionKey) : null);

  const vendorOf = (row: BillingConfigRow | undefined): VendorBilling => ({
    secretKey: open(row?.secret_key ?? null),
    webhookSecret: open(row?.webhook_secret ?? null),
    publishableKey: row?.publishable_key ?? null,
    active: row?.status === PAYMENT_PROVIDER_ACTIVE && !!row.secret_key,
    allowPlanDowngrade: (row?.allow_plan_downgrade ?? 1) === 1,
    allowPlanCancellation: (row?.allow_plan_cancellation ?? 1) === 1,
    trialEndOption: row?.trial_end_option ?? 'change_to_default',
    defaultPlanId: row?.default_plan_id ?? null,
    updatedAt: row ? Number(row.updated_at) : null,
  });

  const viewOf = (row: BillingConfigRow | undefined): BillingConfiguration => {
    const v = vendorOf(row);
    return {
      providerType: PAYMENT_PROVIDER_STRIPE,
      status: v.active ? '1' : '0',
      secretKeySet: !!row?.secret_key,
      webhookSecretSet: !!row?.webhook_secret,
      publishableKey: v.publishableKey,
      allowPlanDowngrade: v.allowPlanDowngrade,
      allowPlanCancellation: v.allowPlanCancellation,
      trialEndOption: v.trialEndOption,
      defaultPlanId: v.defaultPlanId,
      apiBase: deps.apiBase,
      updatedAt: v.updatedAt,
    };
  };

  return {
    async vendor() {
      return vendorOf(await findBillingConfig(db));
    },
    async get() {
      return viewOf(await findBillingConfig(db));
    },
    async save(caller, body) {
      if (body.defaultPlanId && !(await findPlan(db, body.defaultPlanId))) throw Errors.validation('defaultPlanId: no such plan', { field: 'defaultPlanId' });
      if (body.secretKey && !/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.test(body.secretKey)) throw Errors.validation('secretKey: a Stripe secret key starts with sk_test_, sk_live_ or a restricted rk_ key', { field: 'secretKey' });
      if (body.publishableKey && !/^pk_(test|live)_[A-Za-z0-9_]+$/.test(body.publishableKey)) throw Errors.validation('publishableKey: a Stripe publishable key starts with pk_test_ or pk_live_', { field: 'publishableKey' });
      if (body.webhookSecret && !/^whsec_[A-Za-z0-9_]+$/.test(body.webhookSecret)) throw Errors.validation('webhookSecret: a Stripe webhook signing secret starts with whsec_', { field: 'webhookSecret' });
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const before = await findBillingConfig(trx);
        const secretKey = body.secretKey === undefined ? (before?.secret_key ?? null) : body.secretKey ? seal(body.secretKey) : null;
        const webhookSecret = body.webhookSecret === undefined ? (before?.webhook_secret ?? null) : body.webhookSecret ? seal(body.webhookSecret) : null;
        await saveBillingConfig(trx, {
          provider_type: PAYMENT_PROVIDER_STRIPE,
          status: secretKey ? PAYMENT_PROVIDER_ACTIVE : '0',
          secret_key: secretKey,
          webhook_secret: webhookSecret,
          publishable_key: body.publishableKey === undefined ? (before?.publishable_key ?? null) : body.publishableKey || null,
          allow_plan_downgrade: body.allowPlanDowngrade ? 1 : 0,
          allow_plan_cancellation: body.allowPlanCancellation ? 1 : 0,
          trial_end_option: body.trialEndOption,
          default_plan_id: body.defaultPlanId,
          updated_at: now,
        });
        const after = await findBillingConfig(trx);
        const { apiBase: _a, updatedAt: _u, ...oldView } = viewOf(before);
        const { apiBase: _b, updatedAt: _v, ...newView } = viewOf(after);
        await recordAudit(trx, caller, { action: BILLING_CONFIGURATION_UPDATED, description: 'Billing configuration updated', json: { old: before ? oldView : null, new: newView } }, now);
        return viewOf(after);
      });
    },
  };
}
