/** Helpers of the section component tests: an API that records calls and fails on demand, a section rendered in a shadow root, and the failed-delete check. */
import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import type { ComponentType } from 'react';
import { expect } from 'vitest';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import type { SectionProps } from '../sections/section-props';
import { createTestStore, makeUser, shadowMountPoint } from './fake-store';

export interface Call { method: string; path: string; body?: unknown; query?: Record<string, unknown> }
export type Failure = { method: string; path: string; error: { message: string; statusCode: number } };
type Options = { body?: unknown; query?: Record<string, unknown> };

/** The API boundary: records every call, fails the calls in `failures`, answers the rest with `answer` (`{}` when it returns undefined). */
export function recordingApi(answer: (method: string, path: string, options: Options) => unknown, failures: Failure[] = []): { api: GatehouseApi; calls: Call[] } {
  const calls: Call[] = [];
  const api = {
    async request(method: string, path: string, options: Options = {}) {
      calls.push({ method, path, ...options });
      const failure = failures.find((f) => f.method === method && f.path === path);
      if (failure) throw Object.assign(new Error(failure.error.message), failure.error);
      return answer(method, path, options) ?? {};
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

/** Renders `Section` for a user holding `permissions`, with the host's `adminPortal` options. */
export function renderSection(Section: ComponentType<SectionProps>, title: string, api: GatehouseApi, permissions: string[], adminPortal?: Record<string, unknown>) {
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  render(<Section title={title} headingId={`${title.toLowerCase()}-heading`} user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(adminPortal)} />, { container: domElement });
  return within(domElement);
}

/**
 * Confirms the failed delete in `dialog`: the server's `message` shows, focus is back on the Delete
 * button (disabled while saving), and Escape closes only the dialog, never reaching the portal.
 */
export async function expectFailedDeleteKeepsDialog(view: ReturnType<typeof within>, dialog: HTMLElement, message: string) {
  fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
  expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
  // Focus returns in an effect after the failed save's render: wait for it (late on a busy machine).
  await waitFor(() => expect((dialog.getRootNode() as ShadowRoot).activeElement).toBe(within(dialog).getByRole('button', { name: 'Delete' })));
  let reachedDocument = false;
  const listener = () => (reachedDocument = true);
  document.addEventListener('keydown', listener);
  act(() => {
    fireEvent.keyDown(dialog, { key: 'Escape' });
  });
  document.removeEventListener('keydown', listener);
  expect(view.queryByRole('dialog')).toBeNull();
  expect(reachedDocument).toBe(false);
}
