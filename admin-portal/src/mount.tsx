/**
 * Module-federation entry (`./mount`): single-spa parcel lifecycles for the admin portal.
 * The runtime calls `mountRootParcel(createParcel(), { domElement, ...MountProps, onClose })`.
 */
import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import type { ErrorInfo } from 'react';
import { AdminPortalApp } from './admin-portal-app';
import type { AdminPortalProps } from './admin-portal-props';
import { deepActiveElement } from './focus';
import { createThemeApplier, defaultTheme } from '@gatehouse/shared';
import { adoptStyles } from './host-styles';
import { directionOf, resolveLocale, type Locale } from './contract';
import { I18nProvider } from './i18n/i18n-context';
import { translatorFor } from './i18n/registry';
import { ShellSkeleton } from './skeleton';

export type { AdminPortalProps } from './admin-portal-props';

/** Parcel lifecycles as single-spa calls them. */
export interface AdminPortalParcel {
  bootstrap(props: AdminPortalProps): Promise<void>;
  mount(props: AdminPortalProps): Promise<void>;
  unmount(props: AdminPortalProps): Promise<void>;
  update(props: AdminPortalProps): Promise<void>;
}

/**
 * The portal's language: the host's `locale` option when it names a supported one, else the
 * browser's preferred languages, else English.
 */
export function portalLocale(options: AdminPortalProps['options']): Locale {
  const preferred = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return resolveLocale(options.locale, preferred);
}

/** Shown instead of the portal when rendering throws; still closable. */
function PortalCrash({ onClose, locale }: { onClose: () => void; locale: Locale }) {
  // Whatever of the locale's shell catalog is in, else English (always in).
  const t = translatorFor(locale);
  return (
    <div className="gh-ap" dir={directionOf(locale)} lang={locale}>
      <div className="gh-ap-dialog gh-ap-crash" role="dialog" aria-modal="true" aria-label={t.t('shell.title')}>
        <p role="alert">{t.t('common.genericError')}</p>
        <button type="button" className="gh-ap-button" onClick={() => onClose()}>{t.t('shell.close')}</button>
      </div>
    </div>
  );
}

function errorBoundary(_error: Error, _info: ErrorInfo, props: AdminPortalProps) {
  return <PortalCrash onClose={props.onClose} locale={portalLocale(props.options)} />;
}

/** The shell in the portal's language; until the shell's catalog is in (not English), its skeleton. */
function PortalRoot(props: AdminPortalProps) {
  const locale = portalLocale(props.options);
  return (
    <I18nProvider value={translatorFor(locale)}>
      <React.Suspense fallback={<ShellSkeleton dir={directionOf(locale)} lang={locale} />}>
        <AdminPortalApp {...props} />
      </React.Suspense>
    </I18nProvider>
  );
}

/** Creates fresh parcel lifecycles for one showing of the admin portal. */
export function createParcel(): AdminPortalParcel {
  const lifecycles = singleSpaReact<AdminPortalProps>({
    React,
    ReactDOMClient,
    rootComponent: PortalRoot,
    errorBoundary: errorBoundary as (error: Error, info: ErrorInfo, props: AdminPortalProps & object) => React.ReactElement,
  }) as unknown as AdminPortalParcel;
  // Per mounted element: what to undo on unmount (stylesheet, theme, focus to give back).
  const teardowns = new Map<HTMLElement, () => void>();

  return {
    bootstrap: (props) => lifecycles.bootstrap(props),
    async mount(props) {
      const { domElement } = props;
      const previousFocus = deepActiveElement(domElement.ownerDocument);
      const nonce = typeof props.options.nonce === 'string' ? props.options.nonce : undefined;
      const removeStyles = adoptStyles(domElement, nonce);
      let mounted = true;
      // The runtime may keep the setter after unmount; later calls must not touch a reused element.
      const theme = createThemeApplier(domElement, props.options.theme);
      theme.apply(defaultTheme);
      props.setThemeSetter((resolved) => {
        if (mounted) theme.apply(resolved);
      });
      teardowns.set(domElement, () => {
        mounted = false;
        removeStyles();
        theme.clear();
        if (!domElement.getAttribute('style')) domElement.removeAttribute('style');
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
