import { useCallback, useRef, useState } from 'react';
import type { MfaStatusResponse, PasskeyDevice } from '@gatehouse/shared/wire';
import { shortDateTime } from '../../format';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { DeleteDialog } from '../roles/delete-dialog';
import { TableSkeleton } from '../users/users-table';
import { AddFactorDialog, type FactorKind } from './add-factor-dialog';
import type { PrivacyApi } from './privacy-api';
import { factorRows, type FactorRow } from './privacy-format';
import { RegenerateCodesDialog } from './regenerate-codes-dialog';
import { RemoveFactorDialog } from './remove-factor-dialog';
import type { SecurityApi } from './security-api';
import { isCeremonyCancelled, type RegistrationCeremony } from './webauthn';

type Dialog = { kind: 'factor'; factor: FactorRow } | { kind: 'passkey'; passkey: PasskeyDevice } | { kind: 'add' } | { kind: 'codes' } | null;

interface Loaded {
  status: MfaStatusResponse;
  factors: FactorRow[];
  passkeys: PasskeyDevice[];
  kinds: FactorKind[];
}

/** The MFA policy's strategy names, per kind the portal can add (EmailCode is added at sign-in, not here). */
const STRATEGY_OF: Record<FactorKind, string> = { authenticator: 'AuthenticatorApp', sms: 'SMS', securityKey: 'WebAuthnCrossPlatform', platform: 'WebAuthnPlatform' };
const KINDS: readonly FactorKind[] = ['authenticator', 'sms', 'securityKey', 'platform'];

/**
 * MFA (seed 001 "Privacy sections: mfa"; issue 11 section 3): the user's second factors and
 * passkeys, each removable after confirming; adding a second factor (the kinds the MFA policy has
 * on, and only security keys where the browser can make them), adding a passkey, and a new set of
 * recovery codes. `canWrite` false (view-only) lists them without any action.
 */
export function MfaDevicesPart({ privacy, security, ceremony, canWrite, onDialog, onSignInAgain, onFreshAuth, onSaved }: {
  privacy: PrivacyApi;
  security: SecurityApi;
  /** The browser's credential ceremony, or null where WebAuthn is not available. */
  ceremony: RegistrationCeremony | null;
  canWrite: boolean;
  onDialog: (open: boolean) => void;
  onSignInAgain: () => void;
  onFreshAuth: (error: unknown) => boolean;
  onSaved: (message: string) => void;
}) {
  const t = useT();
  const errorText = useErrorText();
  const [dialog, setDialogState] = useState<Dialog>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  const setDialog = (next: Dialog) => {
    setActionError(null);
    setDialogState(next);
    onDialog(next !== null);
  };
  const fresh = (error: unknown) => {
    if (!onFreshAuth(error)) return false;
    setDialogState(null);
    return true;
  };

  const contentRef = useRef<HTMLDivElement>(null);
  useInertWhile(contentRef, dialog !== null);

  const fetchAll = useCallback(async (): Promise<Loaded> => {
    const [status, passkeys, strategies] = await Promise.all([privacy.mfaStatus(), privacy.passkeys(), privacy.mfaStrategies().catch(() => null)]);
    // Without the policy (it failed to load), the authenticator app, which every policy allows.
    const active = new Set(strategies ? strategies.strategies.filter((s) => s.isActive).map((s) => s.strategy) : [STRATEGY_OF.authenticator]);
    const kinds = KINDS.filter((kind) => active.has(STRATEGY_OF[kind]) && (ceremony !== null || (kind !== 'securityKey' && kind !== 'platform')));
    return { status, factors: factorRows(status.devices), passkeys: passkeys.devices, kinds };
  }, [privacy, ceremony]);
  const loadError = useCallback(() => t.t('common.genericError'), [t]);
  const { data, loading, error, reload: load } = useLatestLoad(fetchAll, loadError);

  const done = async (message: string) => {
    await load();
    setDialog(null);
    onSaved(message);
  };

  async function addPasskey() {
    if (!ceremony || adding) return;
    setActionError(null);
    setAdding(true);
    try {
      const device = await security.addPasskey(ceremony);
      await load();
      onSaved(t.t('privacy.passkeys.added', { name: device.name || t.t('privacy.passkeys.unnamed') }));
    } catch (thrown) {
      if (isCeremonyCancelled(thrown)) setActionError(t.t('privacy.add.keyCancelled'));
      else if (!onFreshAuth(thrown)) setActionError(errorText(thrown));
    } finally {
      setAdding(false);
    }
  }

  const passkeyName = (p: PasskeyDevice) => p.name || t.t('privacy.passkeys.unnamed');
  const factorName = (f: FactorRow) => (f.detail ? `${t.t(f.labelKey)} ${f.detail}` : t.t(f.labelKey));
  const col = { added: t.t('privacy.mfa.added'), lastUsed: t.t('privacy.passkeys.lastUsed') };
  const enrolled = (data?.factors.length ?? 0) > 0;

  return (
    <section className="gh-ap-privacy-part" aria-labelledby="gh-ap-privacy-mfa">
      <div ref={contentRef} className="gh-ap-privacy-content">
        <div className="gh-ap-users-head">
          <h3 id="gh-ap-privacy-mfa" className="gh-ap-privacy-title">{t.t('privacy.mfa.title')}</h3>
          {canWrite && data && (
            <div className="gh-ap-privacy-actions">
              {data.kinds.length > 0 && <button type="button" className="gh-ap-button" onClick={() => setDialog({ kind: 'add' })}>{t.t('privacy.mfa.add')}</button>}
              {enrolled && <button type="button" className="gh-ap-button-secondary" onClick={() => setDialog({ kind: 'codes' })}>{t.t('privacy.mfa.newCodes')}</button>}
            </div>
          )}
        </div>
        <p className="gh-ap-hint">
          {data && enrolled ? t.t('privacy.mfa.on', { count: data.status.recoveryCodesLeft }) : t.t('privacy.mfa.off')}
        </p>
        {actionError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{actionError}</p>}
        {error && (
          <div className="gh-ap-banner gh-ap-banner-error gh-ap-privacy-error" role="alert">
            <span>{error}</span>
            <button type="button" className="gh-ap-link" onClick={() => void load()}>{t.t('common.tryAgain')}</button>
          </div>
        )}
        {!error && (
          <>
            <div className="gh-ap-table-wrap">
              <table className="gh-ap-table" aria-busy={loading}>
                <caption className="gh-ap-visually-hidden">{t.t('privacy.mfa.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.t('privacy.mfa.factor')}</th>
                    <th scope="col">{col.added}</th>
                    {canWrite && <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>}
                  </tr>
                </thead>
                <tbody>
                  {data?.factors.map((factor) => (
                    <tr key={factor.id}>
                      <th scope="row">
                        <div className="gh-ap-role-text">
                          <span>{t.t(factor.labelKey)}</span>
                          {factor.detail && <span className="gh-ap-hint">{factor.detail}</span>}
                        </div>
                      </th>
                      <td data-label={col.added} className="gh-ap-nowrap">{shortDateTime(t, factor.createdAt)}</td>
                      {canWrite && (
                        <td className="gh-ap-cell-actions">
                          <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={t.t('privacy.mfa.removeOne', { name: factorName(factor) })} onClick={() => setDialog({ kind: 'factor', factor })}>
                            {t.t('common.remove')}
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                  {!loading && data && data.factors.length === 0 ? (
                    <tr><td colSpan={canWrite ? 3 : 2}><p className="gh-ap-table-empty">{t.t(canWrite && data.kinds.length > 0 ? 'privacy.mfa.emptyAdd' : 'privacy.mfa.empty')}</p></td></tr>
                  ) : null}
                </tbody>
              </table>
              {loading && !data && <TableSkeleton rows={2} />}
            </div>

            <div className="gh-ap-users-head">
              <h3 id="gh-ap-privacy-passkeys" className="gh-ap-privacy-subtitle">{t.t('privacy.passkeys.title')}</h3>
              {canWrite && ceremony && data && (
                <button type="button" className="gh-ap-button-secondary" disabled={adding} aria-busy={adding} onClick={() => void addPasskey()}>
                  {adding && <span className="gh-ap-spinner" aria-hidden="true" />}
                  {t.t('privacy.passkeys.add')}
                </button>
              )}
            </div>
            <div className="gh-ap-table-wrap">
              <table className="gh-ap-table" aria-busy={loading}>
                <caption className="gh-ap-visually-hidden">{t.t('privacy.passkeys.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.t('privacy.passkeys.passkey')}</th>
                    <th scope="col">{col.added}</th>
                    <th scope="col">{col.lastUsed}</th>
                    {canWrite && <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>}
                  </tr>
                </thead>
                <tbody>
                  {data?.passkeys.map((passkey) => (
                    <tr key={passkey.id}>
                      <th scope="row">
                        <div className="gh-ap-role-text">
                          <span>{passkeyName(passkey)}</span>
                          <span className="gh-ap-hint">{t.t(passkey.deviceType === 'multiDevice' ? 'privacy.passkeys.synced' : 'privacy.passkeys.oneDevice')}</span>
                        </div>
                      </th>
                      <td data-label={col.added} className="gh-ap-nowrap">{shortDateTime(t, passkey.createdAt)}</td>
                      <td data-label={col.lastUsed} className="gh-ap-nowrap">{passkey.lastUsedAt ? shortDateTime(t, passkey.lastUsedAt) : t.t('common.never')}</td>
                      {canWrite && (
                        <td className="gh-ap-cell-actions">
                          <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={t.t('privacy.passkeys.removeOne', { name: passkeyName(passkey) })} onClick={() => setDialog({ kind: 'passkey', passkey })}>
                            {t.t('common.remove')}
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                  {!loading && data && data.passkeys.length === 0 ? (
                    <tr><td colSpan={canWrite ? 4 : 3}><p className="gh-ap-table-empty">{t.t(canWrite && ceremony ? 'privacy.passkeys.emptyAdd' : 'privacy.passkeys.empty')}</p></td></tr>
                  ) : null}
                </tbody>
              </table>
              {loading && !data && <TableSkeleton rows={1} />}
            </div>
          </>
        )}
      </div>

      {dialog?.kind === 'factor' && data && (
        <RemoveFactorDialog
          factor={dialog.factor}
          isLast={data.factors.length === 1}
          recoveryCodesLeft={data.status.recoveryCodesLeft}
          onClose={() => setDialog(null)}
          onSignInAgain={onSignInAgain}
          remove={async (code) => {
            await privacy.removeMfaDevice(dialog.factor.id, code);
            await done(t.t('privacy.mfa.removed', { name: t.t(dialog.factor.labelKey) }));
          }}
        />
      )}
      {dialog?.kind === 'passkey' && (
        <DeleteDialog
          title={t.t('privacy.passkeys.removeOne', { name: passkeyName(dialog.passkey) })}
          confirmLabel={t.t('common.remove')}
          text={t.t('privacy.passkeys.removeText', { name: passkeyName(dialog.passkey) })}
          onClose={() => setDialog(null)}
          run={async () => {
            await privacy.removePasskey(dialog.passkey.id);
            await done(t.t('privacy.passkeys.removed', { name: passkeyName(dialog.passkey) }));
          }}
        />
      )}
      {dialog?.kind === 'add' && data && (
        <AddFactorDialog
          kinds={data.kinds}
          enrolment={{
            enrollAuthenticator: security.enrollAuthenticator,
            verifyAuthenticator: security.verifyAuthenticator,
            enrollSms: security.enrollSms,
            verifySms: security.verifySms,
            enrollSecurityKey: (deviceType) => security.enrollSecurityKey(deviceType, ceremony!),
          }}
          onFreshAuth={fresh}
          onClose={() => setDialog(null)}
          onAdded={(kind, codesShown) => {
            void load();
            onSaved(t.t('privacy.add.added', { kind: t.t(`privacy.add.kind.${kind}`) }));
            if (!codesShown) setDialog(null);
          }}
        />
      )}
      {dialog?.kind === 'codes' && (
        <RegenerateCodesDialog regenerate={security.regenerateRecoveryCodes} onFreshAuth={fresh} onClose={() => setDialog(null)} onDone={() => { void load(); onSaved(t.t('privacy.regenerate.done')); }} />
      )}
    </section>
  );
}
