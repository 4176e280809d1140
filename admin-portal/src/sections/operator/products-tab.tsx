import { useCallback } from 'react';
import type { Application, VendorApplication } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { RowMenu } from '../dialogs/row-menu';
import { ProductDialog } from './product-dialog';
import { TabList, useShownGeneration, useTabList } from './tab-list';
import type { OperatorTabProps } from './tab-props';

type Dialog = { kind: 'edit'; product: VendorApplication | null } | { kind: 'delete'; product: VendorApplication };

/**
 * The Products tab (issue 15): the vendor's applications, which tenant admins assign to their users.
 * Add, edit (name, URL, logo address, access type, linked hosted-login client) and delete. The OAuth
 * clients themselves are the Applications tab's.
 */
export default function ProductsTab({ api, generation }: OperatorTabProps) {
  const t = useT();
  const shown = useShownGeneration(generation);
  const fetchList = useCallback(async () => {
    const [products, clients] = await Promise.all([api.products(), api.applications()]);
    return { products, clients };
  }, [api, shown]);
  const state = useTabList<{ products: VendorApplication[]; clients: Application[] }, Dialog>(fetchList);
  const { data, dialog, open, close, finish } = state;
  const col = { url: t.t('operator.products.url'), access: t.t('operator.products.access'), client: t.t('operator.products.client') };
  return (
    <TabList
      state={state}
      intro={t.t('operator.products.intro')}
      button={data && <button type="button" className="gh-ap-button" onClick={() => open({ kind: 'edit', product: null })}>{t.t('operator.products.add')}</button>}
      caption={t.t('operator.products.caption')}
      columns={[t.t('operator.column.product'), col.url, col.access, col.client]}
      items={data?.products ?? null}
      itemKey={(product) => product.id}
      empty={t.t('operator.products.empty')}
      row={(product) => (
        <>
          <th scope="row">{product.name}</th>
          <td data-label={col.url}><code>{product.url}</code></td>
          <td data-label={col.access}>{t.t(product.accessType === 'MANAGED_ACCESS' ? 'operator.products.isManaged' : 'operator.products.isFree')}</td>
          <td data-label={col.client}>{product.clientId ? <code>{product.clientId}</code> : <span className="gh-ap-hint">{t.t('operator.products.noClient')}</span>}</td>
        </>
      )}
      actions={(product) => (
        <RowMenu
          label={t.t('operator.products.actionsFor', { name: product.name })}
          items={[
            { key: 'edit', label: t.t('operator.action.edit'), onSelect: () => open({ kind: 'edit', product }) },
            { key: 'delete', label: t.t('common.delete'), danger: true, onSelect: () => open({ kind: 'delete', product }) },
          ]}
        />
      )}
      dialogs={
        <>
          {dialog?.kind === 'edit' && (
            <ProductDialog
              product={dialog.product}
              clients={data?.clients ?? []}
              onClose={close}
              save={async (body) => {
                if (dialog.product) await api.updateProduct(dialog.product.id, body);
                else await api.createProduct(body);
                await finish(t.t('operator.products.done.saved', { name: String(body.name) }));
              }}
            />
          )}
          {dialog?.kind === 'delete' && (
            <DeleteDialog
              title={t.t('operator.products.deleteTitle', { name: dialog.product.name })}
              text={t.t('operator.products.deleteText')}
              onClose={close}
              run={async () => {
                await api.deleteProduct(dialog.product.id);
                await finish(t.t('operator.products.done.deleted', { name: dialog.product.name }));
              }}
            />
          )}
        </>
      }
    />
  );
}
