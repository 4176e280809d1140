/**
 * The public SSO configuration (seed 000 section 7.3 "Public SSO configuration: GET"), beside the
 * other public configuration reads (captcha policy). A module of its own, out of the first bytes.
 */
export const SSO_PUBLIC_CONFIGURATION_PATH = '/identity/resources/configurations/v1/sso/public';
