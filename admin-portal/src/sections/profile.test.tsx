import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestStore, makeUser, portalProps, shadowMountPoint, type TestStore } from '../test/fake-store';
import { cleanupPortals, mountPortal } from '../test/mount-portal';
import { MAX_PROFILE_IMAGE_BYTES } from './profile-image';

/** The text of every live region: the form's own, and the toast a saved change shows. */
const statusText = (view: ReturnType<typeof within>) => view.getAllByRole('status').map((s: HTMLElement) => s.textContent ?? '').join('');

afterEach(cleanupPortals);

async function openProfile(store: TestStore, adminPortal?: Record<string, unknown>) {
  const { domElement } = shadowMountPoint();
  await mountPortal(portalProps(domElement, store, adminPortal ? { adminPortal } : {}));
  const view = within(domElement);
  await view.findByRole('region', { name: 'Profile' });
  return view;
}

const input = (view: ReturnType<typeof within>, label: string) => view.getByLabelText(label) as HTMLInputElement;
const PNG_BYTES = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

describe('profile section', () => {
  it('is prefilled from the signed-in user, with email read-only', async () => {
    const view = await openProfile(createTestStore(makeUser()));
    expect(input(view, 'Name').value).toBe('Ada Lovelace');
    expect(input(view, 'Phone number').value).toBe('+44 20 7946 0000');
    expect(input(view, 'Address').value).toBe('12 St James Square');
    expect(input(view, 'Job title').value).toBe('Analyst');
    expect(input(view, 'Email').value).toBe('ada@example.com');
    expect(input(view, 'Email').readOnly).toBe(true);
    expect(input(view, 'Profile picture').type).toBe('file');
    expect(input(view, 'Profile picture').accept).toBe('image/png,image/jpeg,image/gif,image/webp');
  });

  it('sends only the changed fields, then says Profile saved', async () => {
    const store = createTestStore(makeUser());
    const view = await openProfile(store);
    fireEvent.change(input(view, 'Job title'), { target: { value: 'Mathematician' } });
    fireEvent.change(input(view, 'Address'), { target: { value: '' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(statusText(view)).toBe('Profile saved'));
    expect(store.updates).toEqual([{ jobTitle: 'Mathematician', address: null }]);
    expect(input(view, 'Job title').value).toBe('Mathematician');
  });

  it('sends nothing when nothing changed', async () => {
    const store = createTestStore(makeUser());
    const view = await openProfile(store);
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(statusText(view)).toBe('No changes to save'));
    expect(store.updates).toEqual([]);
  });

  it('shows the saving state while the store saves', async () => {
    const store = createTestStore(makeUser());
    const outcome: TestStore['nextOutcome'] = { kind: 'pending' };
    store.nextOutcome = outcome;
    const view = await openProfile(store);
    fireEvent.change(input(view, 'Name'), { target: { value: 'Ada King' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    const save = view.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.getAttribute('aria-busy')).toBe('true'));
    expect(save.disabled).toBe(true);
    expect(statusText(view)).toBe('');
    await waitFor(() => expect(outcome.kind === 'pending' && outcome.release).toBeTruthy());
    if (outcome.kind === 'pending') outcome.release!();
    await waitFor(() => expect(statusText(view)).toBe('Profile saved'));
    expect(save.disabled).toBe(false);
    expect(save.getAttribute('aria-busy')).toBe('false');
    expect(store.updates).toEqual([{ name: 'Ada King' }]);
  });

  it('shows the server error in an alert', async () => {
    const store = createTestStore(makeUser());
    store.nextOutcome = { kind: 'error', message: 'phoneNumber may hold only digits' };
    const view = await openProfile(store);
    fireEvent.change(input(view, 'Phone number'), { target: { value: '+1 555 0100' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    expect((await view.findByRole('alert')).textContent).toBe('phoneNumber may hold only digits');
    expect(statusText(view)).toBe('');
  });

  it('refuses a malformed phone number or an empty name before sending', async () => {
    const store = createTestStore(makeUser());
    const view = await openProfile(store);
    fireEvent.change(input(view, 'Name'), { target: { value: '  ' } });
    fireEvent.change(input(view, 'Phone number'), { target: { value: 'call me' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(input(view, 'Name').getAttribute('aria-invalid')).toBe('true'));
    expect(input(view, 'Phone number').getAttribute('aria-invalid')).toBe('true');
    expect(store.updates).toEqual([]);
  });

  it('refuses other image types and files over 1 MiB with a clear message', async () => {
    const store = createTestStore(makeUser());
    const view = await openProfile(store);
    const picker = input(view, 'Profile picture');
    fireEvent.change(picker, { target: { files: [new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' })] } });
    expect((await view.findByRole('alert')).textContent).toBe('Choose a PNG, JPEG, GIF or WebP image.');
    fireEvent.change(picker, { target: { files: [new File([new Uint8Array(MAX_PROFILE_IMAGE_BYTES + 1)], 'big.png', { type: 'image/png' })] } });
    expect((await view.findByRole('alert')).textContent).toBe('The picture is larger than 1 MB. Choose a smaller image.');
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(statusText(view)).toBe('No changes to save'));
    expect(store.updates).toEqual([]);
  });

  it('previews a picked picture and uploads it as a base64 data URL through the store', async () => {
    const store = createTestStore(makeUser());
    const view = await openProfile(store);
    fireEvent.change(input(view, 'Profile picture'), { target: { files: [new File([PNG_BYTES], 'me.png', { type: 'image/png' })] } });
    const region = view.getByRole('region', { name: 'Profile' });
    await waitFor(() => expect(region.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png;base64,/));
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(statusText(view)).toBe('Profile saved'));
    expect(store.updates).toHaveLength(1);
    expect(Object.keys(store.updates[0]!)).toEqual(['profileImage']);
    expect(store.updates[0]!.profileImage).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  });

  it('honours field visibility: hidden fields are absent, view-only ones are read-only and never sent', async () => {
    const store = createTestStore(makeUser());
    const view = await openProfile(store, { fieldVisibility: { profile: { address: 'hidden', jobTitle: 'viewOnly', profilePicture: 'hidden', email: 'hidden' } } });
    expect(view.queryByLabelText('Address')).toBeNull();
    expect(view.queryByLabelText('Email')).toBeNull();
    expect(view.queryByLabelText('Profile picture')).toBeNull();
    expect(input(view, 'Job title').readOnly).toBe(true);
    fireEvent.change(input(view, 'Job title'), { target: { value: 'Changed anyway' } });
    fireEvent.change(input(view, 'Name'), { target: { value: 'Ada B' } });
    fireEvent.click(view.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(statusText(view)).toBe('Profile saved'));
    expect(store.updates).toEqual([{ name: 'Ada B' }]);
  });
});
