import { useId, useRef, useState, type FormEvent } from 'react';
import { ACCOUNT_LOGO_MAX_BYTES, ACCOUNT_LOGO_TYPES, isWebAddress } from '@gatehouse/shared/admin-paths';
import type { Application, VendorApplication } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { FilePicker } from '../../controls/file-picker';

/** The server's bounds of an uploaded application logo (as account logos): png, jpeg, gif or webp, at most 512 KB. */
export const PRODUCT_LOGO_TYPES = ACCOUNT_LOGO_TYPES;
export const PRODUCT_LOGO_MAX_BYTES = ACCOUNT_LOGO_MAX_BYTES;

/** Why a picked logo file can't be sent (a catalog key), or null. */
export function productLogoProblem(file: { type: string; size: number }): string | null {
  if (!(PRODUCT_LOGO_TYPES as readonly string[]).includes(file.type)) return 'operator.products.logoFileType';
  if (file.size > PRODUCT_LOGO_MAX_BYTES) return 'operator.products.logoFileSize';
  return null;
}

/**
 * Add or edit one of the vendor's applications (issue 15): name, URL, logo (an https address, or an
 * image file uploaded as a data URL), access type and the hosted-login client it is linked to. Checks what the server checks before sending, and shows
 * the server's own sentence for anything else (an unknown or already linked client).
 */
export function ProductDialog({ product, clients, save, onClose }: { product: VendorApplication | null; clients: Application[]; save: (body: Record<string, unknown>) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const id = useId().replace(/:/g, '');
  const saving = useSave();
  const [name, setName] = useState(product?.name ?? '');
  const [url, setUrl] = useState(product?.url ?? '');
  // An uploaded logo is kept as it is; only an address is edited here.
  const uploaded = product?.logo?.includes('/applications/resources/applications/v1/logos/') ?? false;
  const [logo, setLogo] = useState(uploaded ? '' : (product?.logo ?? ''));
  const [managed, setManaged] = useState(product?.accessType === 'MANAGED_ACCESS');
  const [clientId, setClientId] = useState(product?.clientId ?? '');
  const [problems, setProblems] = useState<{ name?: string; url?: string; logo?: string; file?: string }>({});
  // A picked image file, read as a data URL: sent as the logo (the server checks its bytes and size again).
  const [upload, setUpload] = useState<{ name: string; dataUrl: string } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  function pickFile(file: File | null) {
    setProblems((current) => ({ ...current, file: undefined }));
    if (!file) return;
    const problem = productLogoProblem(file);
    if (problem) {
      setUpload(null);
      if (fileRef.current) fileRef.current.value = '';
      setProblems((current) => ({ ...current, file: t.t(problem, { kb: PRODUCT_LOGO_MAX_BYTES / 1024 }) }));
      return;
    }
    const reader = new FileReader();
    reader.onload = () => typeof reader.result === 'string' && setUpload({ name: file.name, dataUrl: reader.result });
    reader.onerror = () => setProblems((current) => ({ ...current, file: t.t('operator.products.logoFileUnreadable') }));
    reader.readAsDataURL(file);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    if (!name.trim() || name.trim().length > 120) found.name = t.t('operator.problem.name');
    if (!isWebAddress(url) || /^[a-z]+:\/\/[^/]*@/i.test(url)) found.url = t.t('operator.products.problem.url');
    if (!upload && logo && (!logo.startsWith('https://') || !isWebAddress(logo))) found.logo = t.t('operator.products.problem.logo');
    if (problems.file) found.file = problems.file;
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const body: Record<string, unknown> = { name: name.trim(), url, accessType: managed ? 'MANAGED_ACCESS' : 'FREE_ACCESS', clientId: clientId || null };
    if (upload) body.logo = upload.dataUrl;
    else if (logo || !uploaded) body.logo = logo || null;
    await saving.run(() => save(body));
  }

  return (
    <Modal title={product ? t.t('operator.products.editTitle', { name: product.name }) : t.t('operator.products.add')} onClose={onClose} busy={saving.busy}>
      <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField id={`${id}-name`} label={t.t('operator.field.name')} value={name} busy={saving.busy} problem={problems.name} autofocus onChange={setName} />
        <TextField id={`${id}-url`} label={t.t('operator.products.url')} value={url} busy={saving.busy} problem={problems.url} placeholder="https://app.example.com" onChange={setUrl} />
        <TextField id={`${id}-logo`} label={t.t('operator.products.logo')} value={logo} busy={saving.busy || upload !== null} problem={problems.logo} hint={t.t(uploaded ? 'operator.products.logoUploadedHint' : 'operator.products.logoHint')} onChange={setLogo} />
        <FilePicker
          id={`${id}-logo-file`}
          label={t.t('operator.products.logoFile')}
          hint={t.t('operator.products.logoFileHint', { kb: PRODUCT_LOGO_MAX_BYTES / 1024 })}
          accept={PRODUCT_LOGO_TYPES.join(',')}
          preview={<div className="gh-ap-op-logo">{upload ? <img src={upload.dataUrl} alt={t.t('operator.products.logoFilePreview')} width={48} height={48} /> : product?.logo ? <img src={product.logo} alt={t.t('operator.products.logoCurrent')} width={48} height={48} /> : <span>{t.t('operator.products.logoNone')}</span>}</div>}
          disabled={saving.busy}
          error={problems.file}
          inputRef={fileRef}
          onFile={pickFile}
          {...(upload ? { removeLabel: t.t('operator.products.logoFileRemove'), onRemove: () => { setUpload(null); if (fileRef.current) fileRef.current.value = ''; } } : {})}
        />
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${id}-client`}>{t.t('operator.products.client')}</label>
          <select id={`${id}-client`} className="gh-ap-select" value={clientId} disabled={saving.busy} onChange={(e) => setClientId(e.target.value)}>
            <option value="">{t.t('operator.products.noClient')}</option>
            {clients.map((c) => (
              <option key={c.clientId} value={c.clientId}>{c.name && c.name !== c.clientId ? `${c.name} (${c.clientId})` : c.clientId}</option>
            ))}
          </select>
        </div>
        <label className="gh-ap-check" htmlFor={`${id}-managed`}>
          <input id={`${id}-managed`} type="checkbox" checked={managed} disabled={saving.busy} onChange={(e) => setManaged(e.target.checked)} />
          <span>{t.t('operator.products.managed')}<span className="gh-ap-hint"> {t.t('operator.products.managedHint')}</span></span>
        </label>
        <DialogFooter error={saving.error} busy={saving.busy} label={product ? t.t('operator.products.save') : t.t('operator.products.add')} onClose={onClose} />
      </form>
    </Modal>
  );
}
