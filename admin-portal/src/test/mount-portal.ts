import { act } from '@testing-library/react';
import { createParcel, type AdminPortalParcel, type AdminPortalProps } from '../mount';

const live: { parcel: AdminPortalParcel; props: AdminPortalProps }[] = [];

/** Mounts the portal through its parcel lifecycles, as single-spa would. */
export async function mountPortal(props: AdminPortalProps): Promise<AdminPortalParcel> {
  const parcel = createParcel();
  await parcel.bootstrap(props);
  // Render synchronously inside act; single-spa-react resolves mount after componentDidMount.
  let done!: Promise<void>;
  act(() => {
    done = parcel.mount(props);
  });
  await done;
  live.push({ parcel, props });
  return parcel;
}

export async function unmountPortal(parcel: AdminPortalParcel, props: AdminPortalProps): Promise<void> {
  let done!: Promise<void>;
  act(() => {
    done = parcel.unmount(props);
  });
  await done;
  live.splice(live.findIndex((entry) => entry.parcel === parcel), 1);
}

/** Unmounts whatever a test left mounted and empties the page. */
export async function cleanupPortals(): Promise<void> {
  for (const { parcel, props } of [...live]) await unmountPortal(parcel, props);
  document.body.replaceChildren();
}
