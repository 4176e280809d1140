import { useId, useState, type FormEvent } from 'react';
import { isWebAddress } from '@gatehouse/shared/admin-paths';
import type { Application, VendorApplication } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';

/**
 * Add or edit one of the vendor's applications (issue 15): name, URL, logo address, access type and
 * the hosted-login client it is linked to. Checks what the server checks before sending, and shows
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
  const [problems, setProblems] = useState<{ name?: string; url?: string; logo?: string }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    if (!name.trim() || name.trim().length > 120) found.name = t.t('operator.problem.name');
    if (!isWebAddress(url) || /^[a-z]+:\/\/[^/]*@/i.test(url)) found.url = t.t('operator.products.problem.url');
    if (logo && (!logo.startsWith('https://') || !isWebAddress(logo))) found.logo = t.t('operator.products.problem.logo');
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const body: Record<string, unknown> = { name: name.trim(), url, accessType: managed ? 'MANAGED_ACCESS' : 'FREE_ACCESS', clientId: clientId || null };
    if (logo || !uploaded) body.logo = logo || null;
    await saving.run(() => save(body));
  }

  return (
    <Modal title={product ? t.t('operator.products.editTitle', { name: product.name }) : t.t('operator.products.add')} onClose={onClose} busy={saving.busy}>
      <form className="gh-ap-form gh-ap-op-form" onSubmit={(e) => void submit(e)} noValidate>
        <TextField id={`${id}-name`} label={t.t('operator.field.name')} value={name} busy={saving.busy} problem={problems.name} autofocus onChange={setName} />
        <TextField id={`${id}-url`} label={t.t('operator.products.url')} value={url} busy={saving.busy} problem={problems.url} placeholder="https://app.example.com" onChange={setUrl} />
        <TextField id={`${id}-logo`} label={t.t('operator.products.logo')} value={logo} busy={saving.busy} problem={problems.logo} hint={t.t(uploaded ? 'operator.products.logoUploadedHint' : 'operator.products.logoHint')} onChange={setLogo} />
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
