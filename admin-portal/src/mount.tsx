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

export type { AdminPortalProps } from './admin-portal-props';

/** Parcel lifecycles as single-spa calls them. */
export interface AdminPortalParcel {
  bootstrap(props: AdminPortalProps): Promise<void>;
  mount(props: AdminPortalProps): Promise<void>;
  unmount(props: AdminPortalProps): Promise<void>;
  update(props: AdminPortalProps): Promise<void>;
}

const GENERIC_ERROR = "We're facing some difficulties, Please try again";

/** Shown instead of the portal when rendering throws; still closable. */
function PortalCrash({ onClose }: { onClose: () => void }) {
  return (
    <div className="gh-ap">
      <div className="gh-ap-dialog gh-ap-crash" role="dialog" aria-modal="true" aria-label="Admin portal">
        <p role="alert">{GENERIC_ERROR}</p>
        <button type="button" className="gh-ap-button" onClick={() => onClose()}>Close</button>
      </div>
    </div>
  );
}

function errorBoundary(_error: Error, _info: ErrorInfo, props: AdminPortalProps) {
  return <PortalCrash onClose={props.onClose} />;
}

/** Creates fresh parcel lifecycles for one showing of the admin portal. */
export function createParcel(): AdminPortalParcel {
  const lifecycles = singleSpaReact<AdminPortalProps>({
    React,
    ReactDOMClient,
    rootComponent: AdminPortalApp,
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
