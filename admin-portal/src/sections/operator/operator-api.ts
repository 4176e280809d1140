/**
 * The Operator area's calls (issue 13; OperatorPaths): plans, features, feature flags, the vendor
 * billing configuration, OAuth applications and (issue 18) the CDN rollouts. Every one needs a super user; the server refuses
 * anyone else (403), whatever the portal shows.
 */
import { ApplicationPaths, OperatorPaths } from '@gatehouse/shared/admin-paths';
import type { Application, BillingConfiguration, CdnPromoteBody, CdnPruneResponse, CdnPublishBody, CdnPublishResponse, CdnVersionsResponse, Feature, FeatureFlag, OperatorPlan, VendorApplication } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

const at = (path: string, name: 'id' | 'clientId' | 'appId' | 'bundle' | 'tenantId', value: string) => path.replace(`{${name}}`, encodeURIComponent(value));

/** PUT billing-configuration/v1 (BillingConfigurationBody): a secret left undefined keeps the stored one, '' removes it. */
export interface BillingConfigurationInput {
  secretKey?: string;
  webhookSecret?: string;
  publishableKey: string | null;
  allowPlanDowngrade: boolean;
  allowPlanCancellation: boolean;
  trialEndOption: BillingConfiguration['trialEndOption'];
  defaultPlanId: string | null;
}

export function createOperatorApi(api: GatehouseApi) {
  return {
    plans: () => api.request<OperatorPlan[]>('GET', OperatorPaths.plans),
    createPlan: (body: Record<string, unknown>) => api.request<OperatorPlan>('POST', OperatorPaths.plans, { body }),
    updatePlan: (id: string, body: Record<string, unknown>) => api.request<OperatorPlan>('PATCH', at(OperatorPaths.plan, 'id', id), { body }),
    deletePlan: (id: string) => api.request<unknown>('DELETE', at(OperatorPaths.plan, 'id', id)),
    features: () => api.request<Feature[]>('GET', OperatorPaths.features),
    createFeature: (body: Record<string, unknown>) => api.request<Feature>('POST', OperatorPaths.features, { body }),
    updateFeature: (id: string, body: Record<string, unknown>) => api.request<Feature>('PATCH', at(OperatorPaths.feature, 'id', id), { body }),
    deleteFeature: (id: string) => api.request<unknown>('DELETE', at(OperatorPaths.feature, 'id', id)),
    flags: () => api.request<FeatureFlag[]>('GET', OperatorPaths.featureFlags),
    createFlag: (body: Record<string, unknown>) => api.request<FeatureFlag>('POST', OperatorPaths.featureFlags, { body }),
    updateFlag: (id: string, body: Record<string, unknown>) => api.request<FeatureFlag>('PATCH', at(OperatorPaths.featureFlag, 'id', id), { body }),
    deleteFlag: (id: string) => api.request<unknown>('DELETE', at(OperatorPaths.featureFlag, 'id', id)),
    billing: () => api.request<BillingConfiguration>('GET', OperatorPaths.billingConfiguration),
    saveBilling: (input: BillingConfigurationInput) => api.request<BillingConfiguration>('PUT', OperatorPaths.billingConfiguration, { body: billingBody(input) }),
    applications: () => api.request<Application[]>('GET', OperatorPaths.applications),
    createApplication: (body: Record<string, unknown>) => api.request<Application>('POST', OperatorPaths.applications, { body }),
    updateApplication: (clientId: string, body: Record<string, unknown>) => api.request<Application>('PATCH', at(OperatorPaths.application, 'clientId', clientId), { body }),
    deleteApplication: (clientId: string) => api.request<unknown>('DELETE', at(OperatorPaths.application, 'clientId', clientId)),
    newSecret: (clientId: string) => api.request<Application>('POST', at(OperatorPaths.applicationSecret, 'clientId', clientId)),
    /** The vendor's applications (issue 15; ApplicationPaths), shown as Products. */
    products: () => api.request<VendorApplication[]>('GET', ApplicationPaths.applications),
    createProduct: (body: Record<string, unknown>) => api.request<VendorApplication>('POST', ApplicationPaths.applications, { body }),
    updateProduct: (id: string, body: Record<string, unknown>) => api.request<VendorApplication>('PATCH', at(ApplicationPaths.application, 'appId', id), { body }),
    deleteProduct: (id: string) => api.request<unknown>('DELETE', at(ApplicationPaths.application, 'appId', id)),
    /** CDN rollouts (issue 18): every published version of every bundle, with its state and size over the wire. */
    cdnVersions: () => api.request<CdnVersionsResponse>('GET', OperatorPaths.cdnVersions),
    cdnPromote: (bundle: string, body: CdnPromoteBody) => api.request<unknown>('POST', at(OperatorPaths.cdnPromote, 'bundle', bundle), { body }),
    cdnRollback: (bundle: string) => api.request<unknown>('POST', at(OperatorPaths.cdnRollback, 'bundle', bundle)),
    cdnStopCanary: (bundle: string) => api.request<unknown>('DELETE', at(OperatorPaths.cdnCanary, 'bundle', bundle)),
    cdnUnpin: (bundle: string, tenantId: string) => api.request<unknown>('DELETE', at(at(OperatorPaths.cdnPin, 'bundle', bundle), 'tenantId', tenantId)),
    cdnPrune: (keep: number) => api.request<CdnPruneResponse>('POST', OperatorPaths.cdnPrune, { body: { keep } }),
    /** A built version folder's files (201 published, 200 already published with the same bytes). */
    cdnPublish: (body: CdnPublishBody) => api.request<CdnPublishResponse>('POST', OperatorPaths.cdnPublish, { body }),
  };
}

export type OperatorApi = ReturnType<typeof createOperatorApi>;

/** The PUT body: a secret is sent only when typed or removed on purpose, so the stored one (which the page never has) is kept otherwise. */
export function billingBody(input: BillingConfigurationInput): Record<string, unknown> {
  return {
    ...(input.secretKey !== undefined ? { secretKey: input.secretKey } : {}),
    ...(input.webhookSecret !== undefined ? { webhookSecret: input.webhookSecret } : {}),
    publishableKey: input.publishableKey,
    allowPlanDowngrade: input.allowPlanDowngrade,
    allowPlanCancellation: input.allowPlanCancellation,
    trialEndOption: input.trialEndOption,
    defaultPlanId: input.defaultPlanId,
  };
}
