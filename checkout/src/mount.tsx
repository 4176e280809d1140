/**
 * Module-federation entry (`./mount`): single-spa parcel lifecycles for the checkout dialog. The
 * runtime mounts it into `<gatehouse-checkout>` on `app.showCheckoutDialog({ planId })` with
 * `{ domElement, ...MountProps, planId, onClose }` and unmounts it on `hideCheckoutDialog()`.
 */
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import type { ErrorInfo } from 'react';
import { createThemeApplier, defaultTheme, resolveLocale, type Locale, type MountProps } from '@gatehouse/shared';
import { CheckoutDialog } from './checkout-dialog';
import { checkoutTranslator } from './i18n/catalogs';
import { adoptStyles } from './host-styles';

/**
 * What the checkout's mount receives: the bundle contract plus the plan to check out, how to close,
 * and the element that had focus when `showCheckoutDialog` was called (focus goes back to it).
 */
export type CheckoutProps = MountProps & { planId: string; onClose(): void; opener?: Element | null };

/** Parcel lifecycles as single-spa calls them. */
export interface CheckoutParcel {
  bootstrap(props: CheckoutProps): Promise<void>;
  mount(props: CheckoutProps): Promise<void>;
  unmount(props: CheckoutProps): Promise<void>;
  update(props: CheckoutProps): Promise<void>;
}

/** The host's `locale` option when supported, else the browser's languages, else English. */
export function checkoutLocale(options: MountProps['options']): Locale {
  const preferred = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return resolveLocale(options.locale, preferred);
}

/** The focused element, seen through open shadow roots. */
function deepActiveElement(root: Document | ShadowRoot): Element | null {
  let active = root.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

function CheckoutRoot(props: CheckoutProps) {
  const t = React.useMemo(() => checkoutTranslator(checkoutLocale(props.options)), [props.options]);
  return <CheckoutDialog api={props.api} planId={props.planId} t={t} domElement={props.domElement} onClose={props.onClose} />;
}

/** Shown instead of the dialog when rendering throws; still closable. */
function errorBoundary(_error: Error, _info: ErrorInfo, props: CheckoutProps) {
  const t = checkoutTranslator(checkoutLocale(props.options));
  return (
    <div className="gh-co" dir={t.dir} lang={t.locale}>
      <div className="gh-co-dialog" role="dialog" aria-modal="true" aria-label={t.t('checkout.title')}>
        <p className="gh-co-error" role="alert">{t.t('checkout.genericError')}</p>
        <button type="button" className="gh-co-button" onClick={() => props.onClose()}>{t.t('checkout.close')}</button>
      </div>
    </div>
  );
}

/** Creates fresh parcel lifecycles for one showing of the checkout. */
export function createParcel(): CheckoutParcel {
  const lifecycles = singleSpaReact<CheckoutProps>({
    React,
    ReactDOMClient,
    rootComponent: CheckoutRoot,
    errorBoundary: errorBoundary as (error: Error, info: ErrorInfo, props: CheckoutProps & object) => React.ReactElement,
  }) as unknown as CheckoutParcel;
  const teardowns = new Map<HTMLElement, () => void>();
  return {
    bootstrap: (props) => lifecycles.bootstrap(props),
    async mount(props) {
      const { domElement } = props;
      const previousFocus = props.opener ?? deepActiveElement(domElement.ownerDocument);
      const removeStyles = adoptStyles(domElement, typeof props.options.nonce === 'string' ? props.options.nonce : undefined);
      let mounted = true;
      const theme = createThemeApplier(domElement, props.options.theme);
      theme.apply(defaultTheme);
      // The runtime may keep the setter after unmount; later calls must not touch a reused element.
      props.setThemeSetter((resolved) => {
        if (mounted) theme.apply(resolved);
      });
      teardowns.set(domElement, () => {
        mounted = false;
        removeStyles();
        theme.clear();
        if (!domElement.getAttribute('style')) domElement.removeAttribute('style');
        // Focus goes back where it was when the dialog opened (the plan card's button).
        if (previousFocus instanceof HTMLElement && previousFocus.isConnected && previousFocus !== domElement.ownerDocument.body) previousFocus.focus();
      });
      await lifecycles.mount(props);
    },
    async unmount(props) {
      await lifecycles.unmount(props);
      props.domElement.replaceChildren();
      teardowns.get(props.domElement)?.();
      teardowns.delete(props.domElement);
    },
    update: (props) => lifecycles.update(props),
  };
}
