import { OperatorPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { auditsOf, callAs, superUser, tenantWithAdmin } from '../../test/admin-helpers';
import { insertPlan } from '../../test/billing-helpers';
import { describeDialects } from '../../test/harness';

const KEK = 'ab'.repeat(32);
const body = {
  secretKey: 'sk_test_operator_secret_123',
  publishableKey: 'pk_test_operator_public_123',
  webhookSecret: 'whsec_operator_hook_123',
  allowPlanDowngrade: false,
  allowPlanCancellation: true,
  trialEndOption: 'retain_trial',
  defaultPlanId: null,
};

describeDialects('operator billing configuration', (h) => {
  it('saves the Stripe keys sealed at rest, answers only whether the secrets are set, makes the provider active, and audits the change without a secret', async () => {
    const server = await h.start({ GATEHOUSE_KEY_ENCRYPTION_KEY: KEK, STRIPE_API_URL: 'http://127.0.0.1:8420' });
    const operator = await superUser(server);
    const free = await insertPlan(server, { name: 'Free', price: 0 });

    const saved = await callAs(server, operator, 'PUT', OperatorPaths.billingConfiguration, { body: { ...body, defaultPlanId: free } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ providerType: 'Stripe', status: '1', secretKeySet: true, webhookSecretSet: true, publishableKey: body.publishableKey, allowPlanDowngrade: false, allowPlanCancellation: true, trialEndOption: 'retain_trial', defaultPlanId: free, apiBase: 'http://127.0.0.1:8420' });
    const read = await callAs(server, operator, 'GET', OperatorPaths.billingConfiguration);
    expect(read.body).toEqual(saved.body);
    for (const answer of [saved.body, read.body]) {
      expect(JSON.stringify(answer)).not.toContain(body.secretKey);
      expect(JSON.stringify(answer)).not.toContain(body.webhookSecret);
    }
    const row = await server.db.selectFrom('vendor_billing_config').selectAll().executeTakeFirstOrThrow();
    expect(row.secret_key).toMatch(/^enc:v1:/);
    expect(row.webhook_secret).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain(body.secretKey);

    // A secret left out is kept; null clears it (and Stripe is no longer active).
    const kept = await callAs(server, operator, 'PUT', OperatorPaths.billingConfiguration, { body: { allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null } });
    expect(kept.body).toMatchObject({ status: '1', secretKeySet: true, webhookSecretSet: true, allowPlanDowngrade: true });
    const cleared = await callAs(server, operator, 'PUT', OperatorPaths.billingConfiguration, { body: { ...body, secretKey: null } });
    expect(cleared.body).toMatchObject({ status: '0', secretKeySet: false, webhookSecretSet: true });

    const audits = (await auditsOf(server, operator.tenantId)).filter((a) => a.action === 'operator.billing-configuration.updated');
    expect(audits).toHaveLength(3);
    const first = JSON.parse(audits[2]!.json!);
    expect(first.old).toBeNull();
    expect(first.new).toMatchObject({ secretKeySet: true, allowPlanDowngrade: false, defaultPlanId: free });
    expect(JSON.parse(audits[1]!.json!)).toMatchObject({ old: { allowPlanDowngrade: false }, new: { allowPlanDowngrade: true } });
    for (const a of audits) {
      expect(a.json).not.toContain(body.secretKey);
      expect(a.json).not.toContain(body.webhookSecret);
    }
  });

  it('refuses tenant admins (403 ER-04001) and bad input with a 400 naming the field, changing nothing', async () => {
    // The file's database is shared: the key the first test sealed with is needed to read it.
    const server = await h.start({ GATEHOUSE_KEY_ENCRYPTION_KEY: KEK });
    const operator = await superUser(server);
    const admin = await tenantWithAdmin(server);
    expect((await callAs(server, admin, 'GET', OperatorPaths.billingConfiguration)).body.errorCode).toBe('ER-04001');
    const refused = await callAs(server, admin, 'PUT', OperatorPaths.billingConfiguration, { body });
    expect([refused.status, refused.body.errorCode]).toEqual([403, 'ER-04001']);
    const before = await callAs(server, operator, 'GET', OperatorPaths.billingConfiguration);

    for (const [field, value] of [['secretKey', 'pk_test_wrong_kind'], ['publishableKey', 'sk_test_wrong_kind'], ['webhookSecret', 'nope'], ['defaultPlanId', 'no-such-plan'], ['defaultPlanId', ''], ['trialEndOption', 'forever']] as const) {
      const res = await callAs(server, operator, 'PUT', OperatorPaths.billingConfiguration, { body: { ...body, [field]: value } });
      expect([field, res.status]).toEqual([field, 400]);
      expect(res.body.errors.join(' ')).toContain(field);
    }
    expect((await callAs(server, operator, 'GET', OperatorPaths.billingConfiguration)).body).toEqual(before.body);
  });
});
