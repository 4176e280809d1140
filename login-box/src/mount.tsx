/**
 * The login box's single entry (module-federation `./mount`): single-spa parcel lifecycles.
 * The runtime calls `mountRootParcel(createParcel(), { domElement, ...MountProps })`.
 */
import React from 'react';
import ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import { LoginBoxApp, LoginBoxError, type LoginBoxProps } from './LoginBoxApp';

/** Fresh lifecycles per call, so several boxes can be mounted side by side. */
export function createParcel() {
  return singleSpaReact<LoginBoxProps>({
    React,
    ReactDOMClient,
    rootComponent: LoginBoxApp,
    errorBoundary: () => <LoginBoxError />,
  });
}

export default createParcel;
