import { fireEvent, within } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { createTestStore, makeUser, portalProps, shadowMountPoint } from './test/fake-store';
import { cleanupPortals, mountPortal } from './test/mount-portal';

// The users chunk fails to load once (as a flaky CDN would), then loads.
const chunk = vi.hoisted(() => ({ attempts: 0 }));
vi.mock('./sections/users', () => {
  chunk.attempts += 1;
  if (chunk.attempts === 1) throw new Error('Failed to fetch dynamically imported module');
  return { default: () => <p>Users loaded</p> };
});

afterEach(cleanupPortals);

it('keeps a section that fails to load inside the content pane, and retries it', async () => {
  // React reports the caught load error on console.error; expected here.
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  const user = makeUser({ permissions: [{ id: '1', key: 'fe.secure.read.users', name: 'Read users' }] });
  const { domElement } = shadowMountPoint();
  await mountPortal(portalProps(domElement, createTestStore(user)));
  const view = within(domElement);
  fireEvent.click(view.getByRole('button', { name: 'Users' }));
  expect((await view.findByRole('alert')).textContent).toBe("We're facing some difficulties, Please try again");
  expect(view.getByRole('navigation', { name: 'Admin portal sections' })).toBeTruthy();
  fireEvent.click(view.getByRole('button', { name: 'Try again' }));
  expect(await view.findByText('Users loaded')).toBeTruthy();
  consoleError.mockRestore();
});
