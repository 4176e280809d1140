/**
 * The SCIM schemas this service implements (RFC 7643 sections 4, 7 and 8.7): User with the enterprise
 * extension, and Group. These definitions are the one source for the `/Schemas` answer, for filter
 * comparisons (caseExact), for PATCH (mutability, multiValued) and for attribute selection (returned),
 * so what is published is what is enforced. Attributes Gatehouse does not keep (ims, photos, x509
 * certificates, entitlements, roles, password) are left out: a client sending them has them ignored.
 */

export const SCHEMA_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCHEMA_ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const SCHEMA_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCHEMA_LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCHEMA_PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCHEMA_SERVICE_PROVIDER_CONFIG = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
export const SCHEMA_RESOURCE_TYPE = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
export const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export type AttributeType = 'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'binary' | 'reference' | 'complex';
export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
export type Returned = 'always' | 'never' | 'default' | 'request';
export type Uniqueness = 'none' | 'server' | 'global';

/** One attribute definition, in the shape RFC 7643 section 7 publishes. */
export interface AttributeDefinition {
  name: string;
  type: AttributeType;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: Mutability;
  returned: Returned;
  uniqueness: Uniqueness;
  canonicalValues?: string[];
  referenceTypes?: string[];
  subAttributes?: AttributeDefinition[];
}

/** A schema (core or extension) as `/Schemas` answers it, less `meta`. */
export interface SchemaDefinition {
  id: string;
  name: string;
  description: string;
  attributes: AttributeDefinition[];
}

/** One resource type: its core schema and its extensions, by URN. */
export interface ResourceTypeDefinition {
  name: 'User' | 'Group';
  endpoint: '/Users' | '/Groups';
  core: SchemaDefinition;
  extensions: SchemaDefinition[];
  /** The common attributes (id, externalId, meta): filterable and selectable, not published in the schema. */
  common: AttributeDefinition[];
}

type Opts = Partial<Omit<AttributeDefinition, 'name' | 'type' | 'description'>>;

function attr(name: string, type: AttributeType, description: string, opts: Opts = {}): AttributeDefinition {
  return {
    name,
    type,
    multiValued: opts.multiValued ?? false,
    description,
    required: opts.required ?? false,
    caseExact: opts.caseExact ?? false,
    mutability: opts.mutability ?? 'readWrite',
    returned: opts.returned ?? 'default',
    uniqueness: opts.uniqueness ?? 'none',
    ...(opts.canonicalValues ? { canonicalValues: opts.canonicalValues } : {}),
    ...(opts.referenceTypes ? { referenceTypes: opts.referenceTypes } : {}),
    ...(opts.subAttributes ? { subAttributes: opts.subAttributes } : {}),
  };
}

/** The sub-attributes of a multi-valued string attribute with a type and a primary flag (emails, phoneNumbers). */
function typedValue(valueDescription: string, types: string[]): AttributeDefinition[] {
  return [
    attr('value', 'string', valueDescription),
    attr('display', 'string', 'A human-readable name, primarily used for display purposes.'),
    attr('type', 'string', 'A label indicating the attribute\'s function.', { canonicalValues: types }),
    attr('primary', 'boolean', 'A Boolean value indicating the \'primary\' or preferred attribute value for this attribute.'),
  ];
}

const COMMON: AttributeDefinition[] = [
  attr('id', 'string', 'A unique identifier for a SCIM resource as defined by the service provider.', { caseExact: true, mutability: 'readOnly', returned: 'always', uniqueness: 'server' }),
  attr('externalId', 'string', 'An identifier for the resource as defined by the provisioning client.', { caseExact: true }),
  attr('meta', 'complex', 'Resource metadata.', {
    mutability: 'readOnly',
    subAttributes: [
      attr('resourceType', 'string', 'The name of the resource type of the resource.', { caseExact: true, mutability: 'readOnly' }),
      attr('created', 'dateTime', 'The date and time the resource was added to the service provider.', { mutability: 'readOnly' }),
      attr('lastModified', 'dateTime', 'The most recent date and time that the details of this resource were updated.', { mutability: 'readOnly' }),
      attr('location', 'reference', 'The URI of the resource being returned.', { caseExact: true, mutability: 'readOnly', referenceTypes: ['uri'] }),
      attr('version', 'string', 'The version of the resource being returned (its ETag).', { caseExact: true, mutability: 'readOnly' }),
    ],
  }),
];

export const USER_SCHEMA: SchemaDefinition = {
  id: SCHEMA_USER,
  name: 'User',
  description: 'User Account',
  attributes: [
    attr('userName', 'string', 'Unique identifier for the User, typically used by the user to directly authenticate to the service provider. Unique within the tenant.', { required: true, uniqueness: 'server' }),
    attr('name', 'complex', 'The components of the user\'s real name.', {
      subAttributes: [
        attr('formatted', 'string', 'The full name, including all middle names, titles, and suffixes as appropriate, formatted for display.'),
        attr('familyName', 'string', 'The family name of the User.'),
        attr('givenName', 'string', 'The given name of the User.'),
        attr('middleName', 'string', 'The middle name(s) of the User.'),
        attr('honorificPrefix', 'string', 'The honorific prefix(es) of the User.'),
        attr('honorificSuffix', 'string', 'The honorific suffix(es) of the User.'),
      ],
    }),
    attr('displayName', 'string', 'The name of the User, suitable for display to end-users.'),
    attr('nickName', 'string', 'The casual way to address the user in real life.'),
    attr('title', 'string', 'The user\'s title, such as "Vice President".'),
    attr('userType', 'string', 'Used to identify the relationship between the organization and the user.'),
    attr('preferredLanguage', 'string', 'Indicates the User\'s preferred written or spoken language.'),
    attr('locale', 'string', 'Used to indicate the User\'s default location for purposes of localizing items.'),
    attr('timezone', 'string', 'The User\'s time zone in the \'Olson\' time zone database format.'),
    attr('active', 'boolean', 'A Boolean value indicating the User\'s administrative status in this tenant; false deactivates.'),
    attr('emails', 'complex', 'Email addresses for the user. The primary one (else the first) is the user\'s Gatehouse email.', {
      multiValued: true,
      subAttributes: typedValue('Email addresses for the user.', ['work', 'home', 'other']),
    }),
    attr('phoneNumbers', 'complex', 'Phone numbers for the User.', {
      multiValued: true,
      subAttributes: typedValue('Phone number of the User.', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
    }),
    attr('addresses', 'complex', 'A physical mailing address for this User.', {
      multiValued: true,
      subAttributes: [
        attr('formatted', 'string', 'The full mailing address, formatted for display or use with a mailing label.'),
        attr('streetAddress', 'string', 'The full street address component.'),
        attr('locality', 'string', 'The city or locality component.'),
        attr('region', 'string', 'The state or region component.'),
        attr('postalCode', 'string', 'The zip code or postal code component.'),
        attr('country', 'string', 'The country name component.'),
        attr('type', 'string', 'A label indicating the attribute\'s function.', { canonicalValues: ['work', 'home', 'other'] }),
        attr('primary', 'boolean', 'A Boolean value indicating the \'primary\' or preferred attribute value for this attribute.'),
      ],
    }),
    attr('groups', 'complex', 'A list of groups to which the user belongs, through group membership. Read-only: membership is changed on the Group.', {
      multiValued: true,
      mutability: 'readOnly',
      subAttributes: [
        attr('value', 'string', 'The identifier of the User\'s group.', { mutability: 'readOnly', caseExact: true }),
        attr('$ref', 'reference', 'The URI of the corresponding Group resource.', { mutability: 'readOnly', caseExact: true, referenceTypes: ['Group'] }),
        attr('display', 'string', 'A human-readable name, primarily used for display purposes.', { mutability: 'readOnly' }),
        attr('type', 'string', 'A label indicating the attribute\'s function, e.g. \'direct\'.', { mutability: 'readOnly', canonicalValues: ['direct', 'indirect'] }),
      ],
    }),
  ],
};

export const ENTERPRISE_USER_SCHEMA: SchemaDefinition = {
  id: SCHEMA_ENTERPRISE_USER,
  name: 'EnterpriseUser',
  description: 'Enterprise User',
  attributes: [
    attr('employeeNumber', 'string', 'Numeric or alphanumeric identifier assigned to a person, typically based on order of hire or association with an organization.'),
    attr('costCenter', 'string', 'Identifies the name of a cost center.'),
    attr('organization', 'string', 'Identifies the name of an organization.'),
    attr('division', 'string', 'Identifies the name of a division.'),
    attr('department', 'string', 'Identifies the name of a department.'),
    attr('manager', 'complex', 'The User\'s manager.', {
      subAttributes: [
        attr('value', 'string', 'The id of the SCIM resource representing the User\'s manager.', { caseExact: true }),
        attr('$ref', 'reference', 'The URI of the SCIM resource representing the User\'s manager.', { caseExact: true, referenceTypes: ['User'] }),
        attr('displayName', 'string', 'The displayName of the User\'s manager.', { mutability: 'readOnly' }),
      ],
    }),
  ],
};

export const GROUP_SCHEMA: SchemaDefinition = {
  id: SCHEMA_GROUP,
  name: 'Group',
  description: 'Group',
  attributes: [
    attr('displayName', 'string', 'A human-readable name for the Group. Unique within the tenant.', { required: true, uniqueness: 'server' }),
    attr('members', 'complex', 'A list of members of the Group (Users only).', {
      multiValued: true,
      subAttributes: [
        attr('value', 'string', 'Identifier of the member of this Group.', { caseExact: true, mutability: 'immutable' }),
        attr('$ref', 'reference', 'The URI of the corresponding member resource.', { caseExact: true, mutability: 'immutable', referenceTypes: ['User'] }),
        attr('display', 'string', 'A human-readable name, primarily used for display purposes.', { mutability: 'readOnly' }),
        attr('type', 'string', 'A label indicating the type of resource.', { mutability: 'immutable', canonicalValues: ['User'] }),
      ],
    }),
  ],
};

export const USER_RESOURCE: ResourceTypeDefinition = { name: 'User', endpoint: '/Users', core: USER_SCHEMA, extensions: [ENTERPRISE_USER_SCHEMA], common: COMMON };
export const GROUP_RESOURCE: ResourceTypeDefinition = { name: 'Group', endpoint: '/Groups', core: GROUP_SCHEMA, extensions: [], common: COMMON };

/** Every schema `/Schemas` lists. */
export const ALL_SCHEMAS: SchemaDefinition[] = [USER_SCHEMA, ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA];

/** Where an attribute path lands: the schema URN that owns it (null: core or common) and its definition. */
export interface ResolvedAttribute {
  /** The extension URN when the attribute is an extension's, else null. */
  extension: string | null;
  definition: AttributeDefinition;
  /** The sub-attribute, when the path names one. */
  sub: AttributeDefinition | null;
}

function byName(list: readonly AttributeDefinition[] | undefined, name: string): AttributeDefinition | undefined {
  const lower = name.toLowerCase();
  return list?.find((a) => a.name.toLowerCase() === lower);
}

/**
 * Resolves `attr`, `attr.sub`, or a URN-qualified `urn:…:User:attr[.sub]` against a resource type,
 * case-insensitively (RFC 7643 section 2.1). Returns null for an unknown attribute.
 */
export function resolveAttribute(resource: ResourceTypeDefinition, urn: string | null, name: string, subName: string | null): ResolvedAttribute | null {
  let extension: string | null = null;
  let list: readonly AttributeDefinition[];
  if (urn === null || urn.toLowerCase() === resource.core.id.toLowerCase()) {
    list = [...resource.common, ...resource.core.attributes];
  } else {
    const ext = resource.extensions.find((e) => e.id.toLowerCase() === urn.toLowerCase());
    if (!ext) return null;
    extension = ext.id;
    list = ext.attributes;
  }
  let definition = byName(list, name);
  if (!definition && urn === null) {
    // An unqualified name no core attribute has may be an extension's (Entra ID sends `manager`),
    // when exactly one extension has it.
    const owners = resource.extensions.filter((e) => byName(e.attributes, name));
    if (owners.length === 1) {
      extension = owners[0]!.id;
      definition = byName(owners[0]!.attributes, name);
    }
  }
  if (!definition) return null;
  if (subName === null) return { extension, definition, sub: null };
  const sub = byName(definition.subAttributes, subName);
  return sub ? { extension, definition, sub } : null;
}

/** The extension schema of a resource type whose URN is `urn` (case-insensitive), if any. */
export function findExtension(resource: ResourceTypeDefinition, urn: string): SchemaDefinition | undefined {
  return resource.extensions.find((e) => e.id.toLowerCase() === urn.toLowerCase());
}
