import type { MountProps } from './contract';

/** Props the runtime passes to the admin portal parcel: the bundle contract plus `onClose`. */
export interface AdminPortalProps extends MountProps {
  /** Called when the user closes the portal (Close button or Escape); the runtime unmounts it. */
  onClose(): void;
  /** Parcel name given by single-spa. */
  name?: string;
}
