import { useCallback, useRef, useState } from 'react';
import type { MfaStatusResponse, PasskeyDevice } from '@gatehouse/shared/wire';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { DeleteDialog } from '../roles/delete-dialog';
import type { PrivacyApi } from './privacy-api';
import { factorRows, GENERIC_ERROR, shortDateTime, type FactorRow } from './privacy-format';
import { RemoveFactorDialog } from './remove-factor-dialog';

type Dialog = { kind: 'factor'; factor: FactorRow } | { kind: 'passkey'; passkey: PasskeyDevice } | null;

interface Loaded {
  status: MfaStatusResponse;
  factors: FactorRow[];
  passkeys: PasskeyDevice[];
}

const genericError = () => GENERIC_ERROR;

const passkeyName = (p: PasskeyDevice) => p.name || 'Passkey';

/**
 * MFA (seed 001 "Privacy sections: mfa"): the user's second factors (authenticator apps, phones,
 * security keys, email codes) and passkeys, each removable after confirming. `canWrite` false
 * (view-only) lists them without the remove actions.
 */
export function MfaDevicesPart({ privacy, canWrite, onDialog, onSignInAgain }: { privacy: PrivacyApi; canWrite: boolean; onDialog: (open: boolean) => void; onSignInAgain: () => void }) {
  const [dialog, setDialogState] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const setDialog = (next: Dialog) => {
    if (next) setNotice(null);
    setDialogState(next);
    onDialog(next !== null);
  };

  const contentRef = useRef<HTMLDivElement>(null);
  useInertWhile(contentRef, dialog !== null);

  const fetchAll = useCallback(async (): Promise<Loaded> => {
    const [status, passkeys] = await Promise.all([privacy.mfaStatus(), privacy.passkeys()]);
    return { status, factors: factorRows(status.devices), passkeys: passkeys.devices };
  }, [privacy]);
  const { data, loading, error, reload: load } = useLatestLoad(fetchAll, genericError);

  const done = async (message: string) => {
    await load();
    setDialog(null);
    setNotice(message);
  };

  const emptyRow = (columns: number, text: string, loadingText: string) => (
    <tr>
      <td colSpan={columns}>
        <div className="gh-ap-table-empty">{loading && !data ? (<><span className="gh-ap-spinner" aria-hidden="true" /> {loadingText}</>) : text}</div>
      </td>
    </tr>
  );

  return (
    <section className="gh-ap-privacy-part" aria-labelledby="gh-ap-privacy-mfa">
      <div ref={contentRef} className="gh-ap-privacy-content">
        <h3 id="gh-ap-privacy-mfa" className="gh-ap-privacy-title">Multi-factor authentication</h3>
        <p className="gh-ap-hint">
          {data && data.factors.length > 0
            ? `Two-step sign-in is on. ${data.status.recoveryCodesLeft} recovery ${data.status.recoveryCodesLeft === 1 ? 'code' : 'codes'} left.`
            : 'Second factors and passkeys that protect your account.'}
        </p>
        <p className="gh-ap-status" role="status">{notice ?? ''}</p>
        {error && (
          <div className="gh-ap-banner gh-ap-banner-error gh-ap-privacy-error" role="alert">
            <span>{error}</span>
            <button type="button" className="gh-ap-link" onClick={() => void load()}>Try again</button>
          </div>
        )}
        {!error && (
          <>
            <div className="gh-ap-table-wrap">
              <table className="gh-ap-table" aria-busy={loading}>
                <caption className="gh-ap-visually-hidden">Your second factors</caption>
                <thead>
                  <tr>
                    <th scope="col">Second factor</th>
                    <th scope="col">Added</th>
                    {canWrite && <th scope="col"><span className="gh-ap-visually-hidden">Actions</span></th>}
                  </tr>
                </thead>
                <tbody>
                  {data?.factors.map((factor) => (
                    <tr key={factor.id}>
                      <th scope="row">
                        <div className="gh-ap-role-text">
                          <span>{factor.label}</span>
                          {factor.detail && <span className="gh-ap-hint">{factor.detail}</span>}
                        </div>
                      </th>
                      <td className="gh-ap-nowrap">{shortDateTime(factor.createdAt)}</td>
                      {canWrite && (
                        <td>
                          <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={`Remove ${factor.label}${factor.detail ? ` ${factor.detail}` : ''}`} onClick={() => setDialog({ kind: 'factor', factor })}>
                            Remove
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                  {(loading && !data) || (!loading && (data?.factors.length ?? 0) === 0) ? emptyRow(canWrite ? 3 : 2, 'No second factor is set up', 'Loading second factors…') : null}
                </tbody>
              </table>
            </div>
            <div className="gh-ap-table-wrap">
              <table className="gh-ap-table" aria-busy={loading}>
                <caption className="gh-ap-visually-hidden">Your passkeys</caption>
                <thead>
                  <tr>
                    <th scope="col">Passkey</th>
                    <th scope="col">Added</th>
                    <th scope="col">Last used</th>
                    {canWrite && <th scope="col"><span className="gh-ap-visually-hidden">Actions</span></th>}
                  </tr>
                </thead>
                <tbody>
                  {data?.passkeys.map((passkey) => (
                    <tr key={passkey.id}>
                      <th scope="row">
                        <div className="gh-ap-role-text">
                          <span>{passkeyName(passkey)}</span>
                          <span className="gh-ap-hint">{passkey.deviceType === 'multiDevice' ? 'Synced across your devices' : 'On one device'}</span>
                        </div>
                      </th>
                      <td className="gh-ap-nowrap">{shortDateTime(passkey.createdAt)}</td>
                      <td className="gh-ap-nowrap">{passkey.lastUsedAt ? shortDateTime(passkey.lastUsedAt) : 'Never'}</td>
                      {canWrite && (
                        <td>
                          <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={`Remove passkey ${passkeyName(passkey)}`} onClick={() => setDialog({ kind: 'passkey', passkey })}>
                            Remove
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                  {(loading && !data) || (!loading && (data?.passkeys.length ?? 0) === 0) ? emptyRow(canWrite ? 4 : 3, 'No passkeys yet', 'Loading passkeys…') : null}
                </tbody>
              </table>
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
            await done(`${dialog.factor.label} removed`);
          }}
        />
      )}
      {dialog?.kind === 'passkey' && (
        <DeleteDialog
          title={`Remove passkey ${passkeyName(dialog.passkey)}`}
          confirmLabel="Remove"
          text={`${passkeyName(dialog.passkey)} will no longer sign you in. Other passkeys and your password keep working.`}
          onClose={() => setDialog(null)}
          run={async () => {
            await privacy.removePasskey(dialog.passkey.id);
            await done(`Passkey ${passkeyName(dialog.passkey)} removed`);
          }}
        />
      )}
    </section>
  );
}
