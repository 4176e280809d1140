import { useEffect, useState } from 'react';
import type { GatehouseApi, PasswordConfig } from '@gatehouse/shared';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';

// One GET passwords/config per API client, however many screens ask.
const loaded = new WeakMap<GatehouseApi, Promise<PasswordConfig | null>>();

/**
 * The password policy (GET passwords/config), to show its rules before the user fails one; the
 * vendor's public config (same values, often loaded already) stands in until it arrives.
 */
export function usePasswordPolicy(): PasswordConfig | null {
  const { store, api } = useLoginBox();
  const { vendor } = useAuth(store);
  const [policy, setPolicy] = useState<PasswordConfig | null>(null);
  useEffect(() => {
    let live = true;
    let request = loaded.get(api);
    if (!request) {
      request = api.passwordConfig().catch(() => null);
      loaded.set(api, request);
    }
    void request.then((config) => live && config && setPolicy(config));
    return () => {
      live = false;
    };
  }, [api]);
  return policy ?? vendor?.passwordConfig ?? null;
}
