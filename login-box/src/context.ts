/** What every screen needs from the mount props, passed down once. */
import { createContext, useContext } from 'react';
import type { MountProps } from '@gatehouse/shared';

export type LoginBoxContextValue = Pick<MountProps, 'store' | 'api' | 'routes' | 'navigate' | 'options'>;

export const LoginBoxContext = createContext<LoginBoxContextValue | null>(null);

/** The mount props of the login box; throws outside the app (a wiring bug). */
export function useLoginBox(): LoginBoxContextValue {
  const value = useContext(LoginBoxContext);
  if (!value) throw new Error('useLoginBox must be used inside <LoginBoxApp>');
  return value;
}
