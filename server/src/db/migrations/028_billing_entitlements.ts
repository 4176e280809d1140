import type { Kysely, Migration } from 'kysely';

/**
 * Billing, entitlements and feature flags (issue 13), portable across SQLite and PostgreSQL.
 * Timestamps are epoch ms, booleans 0/1, JSON as text.
 *
 * Vendor side (operators manage these):
 * - `plans`: what a tenant can subscribe to; price in minor units, monthly; the Stripe product and
 *   plan ids once created there; optional plan targeting rules (`rules`, JSON Rule[]).
 * - `features`: entitlement features, with the permission keys they gate (`linked_permissions`).
 * - `plan_features`: the features a plan grants, with an optional numeric limit (typed limits).
 * - `feature_flags` and `feature_flag_features`: flags with targeting rules, and the features a
 *   flag grants while its rules match (one flag per feature, as the entitlement context expects).
 * - `entitlement_grants`: a feature granted directly to a tenant or to one of its users, with expiry.
 * - `vendor_billing_config`: one row (`id` = 'vendor'): the Stripe keys (sealed), the plan rules
 *   and the default plan new tenants get.
 *
 * Tenant side (written from Stripe's webhooks, the source of truth):
 * - `billing_customers`: a tenant's Stripe customer.
 * - `subscriptions`: a tenant's subscriptions; `source_updated_at` is the `created` time of the
 *   newest Stripe event applied, so an older event that arrives late changes nothing.
 * - `invoices`: the same for invoices.
 * - `stripe_events`: every Stripe event id applied, so a replayed event is applied once.
 * - `feature_usage`: how much of a limited feature a tenant has used, reported by the host app.
 */
export const billingEntitlementsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('plans')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('price_amount', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('currency', 'text', (c) => c.notNull().defaultTo('usd'))
      .addColumn('recurring_interval', 'text', (c) => c.notNull().defaultTo('month'))
      .addColumn('trial_days', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('seat_limit', 'integer')
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('default_treatment', 'text', (c) => c.notNull().defaultTo('false'))
      .addColumn('rules', 'text')
      .addColumn('stripe_product_id', 'text')
      .addColumn('stripe_plan_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('features')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('linked_permissions', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('plan_features')
      .addColumn('plan_id', 'text', (c) => c.notNull().references('plans.id').onDelete('cascade'))
      .addColumn('feature_id', 'text', (c) => c.notNull().references('features.id').onDelete('cascade'))
      .addColumn('limit_value', 'integer')
      .addPrimaryKeyConstraint('plan_features_pk', ['plan_id', 'feature_id'])
      .execute();
    await db.schema.createIndex('plan_features_feature_idx').on('plan_features').column('feature_id').execute();

    await db.schema
      .createTable('feature_flags')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('is_on', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('off_treatment', 'text', (c) => c.notNull().defaultTo('false'))
      .addColumn('default_treatment', 'text', (c) => c.notNull().defaultTo('false'))
      .addColumn('rules', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('feature_flag_features')
      .addColumn('flag_id', 'text', (c) => c.notNull().references('feature_flags.id').onDelete('cascade'))
      .addColumn('feature_id', 'text', (c) => c.notNull().unique().references('features.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('feature_flag_features_pk', ['flag_id', 'feature_id'])
      .execute();

    await db.schema
      .createTable('entitlement_grants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('feature_id', 'text', (c) => c.notNull().references('features.id').onDelete('cascade'))
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint')
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('entitlement_grants_tenant_idx').on('entitlement_grants').columns(['tenant_id', 'user_id']).execute();

    await db.schema
      .createTable('vendor_billing_config')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('provider_type', 'text', (c) => c.notNull().defaultTo('Stripe'))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('0'))
      .addColumn('secret_key', 'text')
      .addColumn('publishable_key', 'text')
      .addColumn('webhook_secret', 'text')
      .addColumn('allow_plan_downgrade', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('allow_plan_cancellation', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('trial_end_option', 'text', (c) => c.notNull().defaultTo('change_to_default'))
      .addColumn('default_plan_id', 'text', (c) => c.references('plans.id').onDelete('set null'))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('billing_customers')
      .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
      .addColumn('external_id', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('plan_id', 'text', (c) => c.references('plans.id').onDelete('set null'))
      .addColumn('external_id', 'text', (c) => c.unique())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('start_date', 'bigint')
      .addColumn('current_period_start', 'bigint')
      .addColumn('current_period_end', 'bigint')
      .addColumn('cancellation', 'text')
      .addColumn('trial_end', 'bigint')
      .addColumn('externally_managed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('payment_method_id', 'text')
      .addColumn('source_updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('subscriptions_tenant_idx').on('subscriptions').columns(['tenant_id', 'created_at']).execute();

    await db.schema
      .createTable('invoices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('subscription_id', 'text')
      .addColumn('external_id', 'text', (c) => c.notNull().unique())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
      .addColumn('payment_date', 'bigint')
      .addColumn('total_amount', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('currency', 'text', (c) => c.notNull().defaultTo('usd'))
      .addColumn('paid', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('receipt_number', 'text')
      .addColumn('lines', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('source_updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('invoices_tenant_idx').on('invoices').columns(['tenant_id', 'created_at']).execute();

    await db.schema
      .createTable('stripe_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('feature_usage')
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('feature_key', 'text', (c) => c.notNull())
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('feature_usage_pk', ['tenant_id', 'feature_key'])
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['feature_usage', 'stripe_events', 'invoices', 'subscriptions', 'billing_customers', 'vendor_billing_config', 'entitlement_grants', 'feature_flag_features', 'feature_flags', 'plan_features', 'features', 'plans']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
