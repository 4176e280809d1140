import { ErrorCodes, PASSKEYS_STRATEGY, type MetadataResponse, type VendorPublicConfig, type VendorPublicInfo } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { ensureMetadata, findMetadata } from '../../db/queries/metadata';
import { AppError } from '../../errors';
import type { SignUpService } from '../users/signup';
import type { EntitlementsService, EntitlementSubject } from '../entitlements';

/** Admin box metadata stored on first start: the seed's default theme and navigation table. */
export const DEFAULT_ADMIN_BOX = {
  theme: {
    name: 'modern',
    palette: {
      primary: { main: '#3b5bdb', light: '#748ffc', dark: '#364fc7', contrastText: '#ffffff' },
      secondary: { main: '#495057', light: '#868e96', dark: '#212529', contrastText: '#ffffff' },
      error: { main: '#e03131' },
      success: { main: '#2f9e44' },
      background: { default: '#f8f9fa', paper: '#ffffff' },
      text: { primary: '#212529', secondary: '#495057' },
    },
    typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
    shape: { borderRadius: 8 },
  },
  navigation: {
    usage: { visibility: 'hidden', permissions: ['fe.usage.read'] },
    webhooks: { visibility: 'hidden', permissions: ['fe.connectivity.read.webhooks'] },
    roles: { visibility: 'hidden', permissions: ['fe.secure.read.roles'] },
    users: { visibility: 'always', permissions: ['fe.secure.read.users'] },
    personalApiTokens: { visibility: 'hidden', permissions: ['fe.secure.read.userApiTokens'] },
    apiTokens: { visibility: 'hidden', permissions: ['fe.secure.read.tenantApiTokens'] },
    profile: { visibility: 'always' },
    privacy: { visibility: 'always' },
    account: { visibility: 'always', permissions: ['fe.secure.read.accountSettings'] },
    security: { visibility: 'always', permissions: ['fe.secure.read.securityPolicy'] },
    sso: { visibility: 'hidden', permissions: ['fe.secure.read.samlConfiguration'] },
    provisioning: { visibility: 'hidden', permissions: ['fe.secure.read.provisioningConfiguration'] },
    audits: { visibility: 'always', permissions: ['fe.secure.read.audits'] },
    subscriptions: { visibility: 'hidden', permissions: ['fe.subscriptions.*'] },
    allAccounts: { visibility: 'byPermissions', permissions: ['fe.account-hierarchy.read.subAccount'] },
    groups: { visibility: 'hidden', permissions: ['fe.secure.read.groups'] },
  },
};

export interface PublicService {
  ensureDefaults(): Promise<void>;
  /** GET /flags: the environment's flags and the operator's flags evaluated for the caller (null: anonymous, off/default treatments). */
  flags(subject: EntitlementSubject | null): Promise<Record<string, string>>;
  metadata(entityName: string): Promise<MetadataResponse>;
  vendorPublic(): VendorPublicConfig;
  /** GET /vendors/public/info: the deployment's name and application address, nothing of any tenant or user. */
  vendorInfo(): VendorPublicInfo;
}

export function createPublicService(deps: {
  db: Db;
  clock: Clock;
  signUp: SignUpService;
  entitlements: Pick<EntitlementsService, 'flagsFor'>;
  config: Pick<Config, 'allowSignups' | 'password' | 'webauthn' | 'loginStrategy' | 'socialLogin' | 'appName' | 'appUrl'>;
}): PublicService {
  const { db, clock, signUp, config } = deps;
  return {
    ensureDefaults: () => ensureMetadata(db, 'adminBox', DEFAULT_ADMIN_BOX, clock.now()),
    flags: (subject) => deps.entitlements.flagsFor(subject),
    async metadata(entityName) {
      const configuration = await findMetadata(db, entityName);
      if (!configuration) throw new AppError(ErrorCodes.metadataNotFound, 404, 'metadata not found');
      return { rows: [{ entityName, configuration: configuration as Record<string, unknown> }] };
    },
    vendorPublic: () => ({
      name: 'Gatehouse',
      allowSignUps: config.allowSignups,
      loginStrategy: config.loginStrategy,
      signUpStrategies: signUp.strategies(),
      passwordConfig: { ...config.password },
      secondaryLoginStrategies: [{ strategy: PASSKEYS_STRATEGY, isActive: config.webauthn.passkeysPrompt }],
      socialLogin: config.socialLogin.providers.some((p) => p.enabled),
    }),
    vendorInfo: () => ({ name: config.appName, applicationUrl: config.appUrl }),
  };
}
