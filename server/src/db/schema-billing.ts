/** The tables of migration 028 (billing, entitlements, feature flags), merged into `Database` (schema.ts). Epoch ms; booleans 0/1; JSON as text. */
import type { ColumnType } from 'kysely';

type Defaulted<T> = ColumnType<T, T | undefined, T>;

/** 'true' | 'false': a treatment of the entitlement rules (plan targeting, feature flags). */
export type TreatmentText = 'true' | 'false';

export interface PlansTable {
  id: string;
  name: string;
  description: Defaulted<string>;
  slug: string;
  /** Minor units (cents). */
  price_amount: Defaulted<number>;
  currency: Defaulted<string>;
  recurring_interval: Defaulted<string>;
  trial_days: Defaulted<number>;
  /** Users a tenant on this plan may have; null is no limit. */
  seat_limit: number | null;
  is_active: Defaulted<number>;
  /** Plan targeting: the treatment when no rule matches, and the rules (JSON Rule[] or null). */
  default_treatment: Defaulted<TreatmentText>;
  rules: string | null;
  stripe_product_id: string | null;
  stripe_plan_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface FeaturesTable {
  id: string;
  key: string;
  name: string;
  description: Defaulted<string>;
  /** JSON string[] of permission keys this feature gates. */
  linked_permissions: Defaulted<string>;
  created_at: number;
  updated_at: number;
}

export interface PlanFeaturesTable {
  plan_id: string;
  feature_id: string;
  /** A typed limit for the feature on this plan (e.g. 1000 reports a month); null is unlimited. */
  limit_value: number | null;
}

export interface FeatureFlagsTable {
  id: string;
  key: string;
  name: string;
  description: Defaulted<string>;
  is_on: Defaulted<number>;
  off_treatment: Defaulted<TreatmentText>;
  default_treatment: Defaulted<TreatmentText>;
  /** JSON Rule[]. */
  rules: Defaulted<string>;
  created_at: number;
  updated_at: number;
}

export interface FeatureFlagFeaturesTable {
  flag_id: string;
  feature_id: string;
}

export interface EntitlementGrantsTable {
  id: string;
  feature_id: string;
  tenant_id: string;
  /** Null: the grant is for every user of the tenant. */
  user_id: string | null;
  /** Null: no expiry. */
  expires_at: number | null;
  created_by: string | null;
  created_at: number;
}

export interface VendorBillingConfigTable {
  /** Always 'vendor': one row. */
  id: string;
  provider_type: Defaulted<string>;
  /** '1' active, '0' not configured (seed 001: payment providers with status '1'). */
  status: Defaulted<string>;
  /** Sealed with GATEHOUSE_KEY_ENCRYPTION_KEY when it is set (crypto.ts encrypt). */
  secret_key: string | null;
  publishable_key: string | null;
  /** Sealed like secret_key. */
  webhook_secret: string | null;
  allow_plan_downgrade: Defaulted<number>;
  allow_plan_cancellation: Defaulted<number>;
  trial_end_option: Defaulted<'change_to_default' | 'retain_trial'>;
  default_plan_id: string | null;
  updated_at: number;
}

export interface BillingCustomersTable {
  tenant_id: string;
  external_id: string;
  created_at: number;
}

export interface SubscriptionsTable {
  id: string;
  tenant_id: string;
  plan_id: string | null;
  external_id: string | null;
  /** The seed's statuses: active, canceled, incomplete, expired, trialing, trialEnded. */
  status: string;
  start_date: number | null;
  current_period_start: number | null;
  current_period_end: number | null;
  /** 'atPeriodEnd' while a cancellation is pending, else null. */
  cancellation: string | null;
  trial_end: number | null;
  externally_managed: Defaulted<number>;
  payment_method_id: string | null;
  /** `created` (ms) of the newest Stripe event applied to this row. */
  source_updated_at: Defaulted<number>;
  created_at: number;
  updated_at: number;
}

export interface InvoicesTable {
  id: string;
  tenant_id: string;
  subscription_id: string | null;
  external_id: string;
  status: Defaulted<string>;
  payment_date: number | null;
  /** Minor units. */
  total_amount: Defaulted<number>;
  currency: Defaulted<string>;
  paid: Defaulted<number>;
  receipt_number: string | null;
  /** JSON [{ description, amount, quantity }] for the PDF. */
  lines: Defaulted<string>;
  source_updated_at: Defaulted<number>;
  created_at: number;
  updated_at: number;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  created: number;
  received_at: number;
}

export interface FeatureUsageTable {
  tenant_id: string;
  feature_key: string;
  used: Defaulted<number>;
  updated_at: number;
}

export interface BillingTables {
  plans: PlansTable;
  features: FeaturesTable;
  plan_features: PlanFeaturesTable;
  feature_flags: FeatureFlagsTable;
  feature_flag_features: FeatureFlagFeaturesTable;
  entitlement_grants: EntitlementGrantsTable;
  vendor_billing_config: VendorBillingConfigTable;
  billing_customers: BillingCustomersTable;
  subscriptions: SubscriptionsTable;
  invoices: InvoicesTable;
  stripe_events: StripeEventsTable;
  feature_usage: FeatureUsageTable;
}
