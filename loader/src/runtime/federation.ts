/**
 * Module federation host. React, react-dom and the shared core (which holds jotai) are registered
 * once as singletons, so every bundle (remote) uses the copies this runtime already loaded.
 */
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as jsxRuntime from 'react/jsx-runtime';
import * as shared from '@gatehouse/shared';
import * as runtimeCore from '@module-federation/runtime-core';
import type { types } from '@module-federation/runtime-core';
import { createInstance } from '@module-federation/runtime';
import type { ParcelConfig } from 'single-spa';
import type { BootContext } from '../types';
import { addLoadedBundleLazyList } from './lazy-lists';

/** Remote names by bundle (the `name` each bundle's federation build declares). */
export const REMOTE_NAMES: Record<string, string> = {
  'login-box': 'gatehouse_login_box',
  'admin-portal': 'gatehouse_admin_portal',
  checkout: 'gatehouse_checkout',
};

const singleton = (version: string, lib: unknown) => ({
  version,
  scope: 'default',
  lib: () => lib,
  shareConfig: { singleton: true, requiredVersion: false as const },
});

export type ParcelFactory = { createParcel(): ParcelConfig };

/** Creates the federation instance for a boot context; `load(bundle)` returns its `./mount`. */
export function createFederation(ctx: BootContext) {
  // Remotes are built with `experiments.externalRuntime`: they read runtime-core from this global.
  (globalThis as Record<string, unknown>)._FEDERATION_RUNTIME_CORE = runtimeCore;
  const reactVersion = React.version;
  const instance = createInstance({
    name: 'gatehouse_host',
    remotes: [],
    shared: {
      react: singleton(reactVersion, React),
      'react/jsx-runtime': singleton(reactVersion, jsxRuntime),
      'react-dom': singleton(reactVersion, ReactDOM),
      'react-dom/client': singleton(reactVersion, ReactDOMClient),
      '@gatehouse/shared': singleton(shared.ASSET_VERSION, shared),
    },
    plugins: [
      {
        name: 'gatehouse-sri',
        // Every remote entry and chunk is imported through the loader, which registers the
        // manifest's integrity hashes and applies the asset timeout.
        loadEntry: ({ remoteInfo }) => {
          const bundle = Object.keys(REMOTE_NAMES).find((b) => REMOTE_NAMES[b] === remoteInfo.name);
          return bundle ? ctx.importBundle<types.RemoteEntryExports>(bundle).then((container) => (addLoadedBundleLazyList(ctx, bundle), container)) : undefined;
        },
      },
    ],
  });
  const registered = new Set<string>();
  return {
    async load(bundle: string): Promise<ParcelFactory> {
      const name = REMOTE_NAMES[bundle];
      const entry = ctx.manifest.bundles[bundle];
      if (!name || !entry) throw new Error(`Bundle ${bundle} is not in the CDN manifest`);
      if (!registered.has(name)) {
        instance.registerRemotes([{ name, entry: new URL(entry.entry, ctx.cdnBase).href, type: 'module' }]);
        registered.add(name);
      }
      const mod = await instance.loadRemote<ParcelFactory>(`${name}/mount`);
      if (!mod || typeof mod.createParcel !== 'function') throw new Error(`Bundle ${bundle} does not expose createParcel`);
      return mod;
    },
  };
}
