/**
 * The discovery endpoints' bodies (RFC 7644 section 4): ServiceProviderConfig, ResourceTypes and
 * Schemas. They say exactly what the service does — PATCH yes, filter yes (with maxResults), ETags
 * yes, bulk no, changePassword no, sort no, bearer tokens — because conformance suites (scim2-tester)
 * test what is declared. `baseUrl` is the tenant's SCIM root without a trailing slash.
 */
import type { JsonObject } from './filter-match';
import { MAX_RESULTS } from './list-response';
import { ALL_SCHEMAS, GROUP_RESOURCE, SCHEMA_RESOURCE_TYPE, SCHEMA_SCHEMA, SCHEMA_SERVICE_PROVIDER_CONFIG, USER_RESOURCE, type ResourceTypeDefinition, type SchemaDefinition } from './schemas';

/** The resource types, in the order `/ResourceTypes` lists them. */
export const RESOURCE_TYPES: ResourceTypeDefinition[] = [USER_RESOURCE, GROUP_RESOURCE];

/** The ServiceProviderConfig body. */
export function serviceProviderConfig(baseUrl: string, documentationUri?: string): JsonObject {
  return {
    schemas: [SCHEMA_SERVICE_PROVIDER_CONFIG],
    ...(documentationUri ? { documentationUri } : {}),
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: true },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'The provisioning connection\'s token, sent as "Authorization: Bearer <token>".',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

/** One ResourceType body. */
export function resourceTypeBody(rt: ResourceTypeDefinition, baseUrl: string): JsonObject {
  return {
    schemas: [SCHEMA_RESOURCE_TYPE],
    id: rt.name,
    name: rt.name,
    endpoint: rt.endpoint,
    description: rt.name === 'User' ? 'User Account' : 'Group',
    schema: rt.core.id,
    schemaExtensions: rt.extensions.map((e) => ({ schema: e.id, required: false })),
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${rt.name}` },
  };
}

/** One Schema body. */
export function schemaBody(schema: SchemaDefinition, baseUrl: string): JsonObject {
  return {
    schemas: [SCHEMA_SCHEMA],
    id: schema.id,
    name: schema.name,
    description: schema.description,
    attributes: schema.attributes,
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${schema.id}` },
  };
}

/** The ResourceType named `name` (exact, as the RFC's ids are), or undefined. */
export function findResourceType(name: string): ResourceTypeDefinition | undefined {
  return RESOURCE_TYPES.find((rt) => rt.name === name);
}

/** The Schema whose id is `urn` (case-insensitive, as URNs are), or undefined. */
export function findSchema(urn: string): SchemaDefinition | undefined {
  return ALL_SCHEMAS.find((s) => s.id.toLowerCase() === urn.toLowerCase());
}
