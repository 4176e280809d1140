import type { Migration, MigrationProvider } from 'kysely';
import { initialMigration } from './001_initial';
import { signupBindingMigration } from './002_signup_binding';
import { rateLimitsMigration } from './003_rate_limits';
import { mfaMigration } from './004_mfa';
import { smsOutboxMigration } from './005_sms_outbox';
import { webauthnMigration } from './006_webauthn';
import { passwordlessMigration } from './008_passwordless';
import { passwordPoliciesMigration } from './007_password_policies';
import { smsLoginMigration } from './009_sms_login';
import { mfaPhoneWebauthnMigration } from './010_mfa_phone_webauthn';
import { invitationsImpersonationMigration } from './011_invitations_impersonation';
import { oauthMigration } from './013_oauth';
import { socialLoginMigration } from './014_social_login';
import { ssoMigration } from './015_sso';
import { adminPeopleMigration } from './016_admin_people';
import { mfaTokenPrimaryMethodMigration } from './017_mfa_token_primary_method';
import { apiTokensMigration } from './019_api_tokens';
import { accountSettingsMigration } from './020_account_settings';
import { subAccountsMigration } from './021_sub_accounts';
import { securityFixesMigration } from './022_security_fixes';
import { auditCountsMigration } from './023_audit_counts';
import { selfServiceMigration } from './024_self_service';
import { tenantSecurityMigration } from './025_tenant_security';
import { sessionPolicyMigration } from './027_session_policy';
import { billingEntitlementsMigration } from './028_billing_entitlements';
import { scimProvisioningMigration } from './029_scim_provisioning';
import { applicationsMigration } from './030_applications';
import { scimExternalIdMigration } from './031_scim_external_id';
import { scimCreatedAccountMigration } from './032_scim_created_account';
import { connectivityEventsMigration } from './033_connectivity_events';
import { webhooksMigration } from './034_webhooks';
import { channelsMigration } from './035_channels';
import { notificationsMigration } from './036_notifications';
import { reportsMigration } from './037_reports';
import { memberCountsMigration } from './040_member_counts';
import { memberListVersionMigration } from './045_member_list_version';
import { auditsSearchMigration } from './041_audits_search';
import { cdnRolloutsMigration } from './042_cdn_rollouts';
import { memberActivityIndexMigration } from './043_member_activity_index';
import { memberActivityTriggerMigration } from './044_member_activity_trigger';

export type DialectName = 'sqlite' | 'postgres';

/** In-code provider: migrations are bundled with the server, never globbed from disk. */
export function migrationProvider(dialect: DialectName): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return {
        '001_initial': initialMigration(dialect === 'postgres' ? 'bytea' : 'blob'),
        '002_signup_binding': signupBindingMigration,
        '003_rate_limits': rateLimitsMigration,
        '004_mfa': mfaMigration,
        '005_sms_outbox': smsOutboxMigration,
        '006_webauthn': webauthnMigration,
        '008_passwordless': passwordlessMigration,
        '007_password_policies': passwordPoliciesMigration,
        '009_sms_login': smsLoginMigration(dialect),
        '010_mfa_phone_webauthn': mfaPhoneWebauthnMigration,
        '011_invitations_impersonation': invitationsImpersonationMigration,
        '013_oauth': oauthMigration,
        '014_social_login': socialLoginMigration,
        '015_sso': ssoMigration,
        '016_admin_people': adminPeopleMigration(dialect),
        '017_mfa_token_primary_method': mfaTokenPrimaryMethodMigration,
        '019_api_tokens': apiTokensMigration,
        '020_account_settings': accountSettingsMigration(dialect === 'postgres' ? 'bytea' : 'blob'),
        '021_sub_accounts': subAccountsMigration,
        '022_security_fixes': securityFixesMigration,
        '023_audit_counts': auditCountsMigration(dialect),
        '024_self_service': selfServiceMigration,
        '025_tenant_security': tenantSecurityMigration,
        '027_session_policy': sessionPolicyMigration,
        '028_billing_entitlements': billingEntitlementsMigration,
        '029_scim_provisioning': scimProvisioningMigration,
        '030_applications': applicationsMigration(dialect === 'postgres' ? 'bytea' : 'blob'),
        '031_scim_external_id': scimExternalIdMigration,
        '032_scim_created_account': scimCreatedAccountMigration,
        '033_connectivity_events': connectivityEventsMigration,
        '034_webhooks': webhooksMigration,
        '035_channels': channelsMigration,
        '036_notifications': notificationsMigration,
        '037_reports': reportsMigration(dialect === 'postgres' ? 'bytea' : 'blob'),
        '040_member_counts': memberCountsMigration(dialect),
        '041_audits_search': auditsSearchMigration(dialect),
        '042_cdn_rollouts': cdnRolloutsMigration,
        '043_member_activity_index': memberActivityIndexMigration(dialect),
        '044_member_activity_trigger': memberActivityTriggerMigration(dialect),
        '045_member_list_version': memberListVersionMigration(dialect),
      };
    },
  };
}
