import { fireEvent } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { autoCleanup, json, mountLoginBox, sampleVendor } from './test/harness';
import de from './i18n/de';
import { enFirst } from './i18n/en-first';

autoCleanup();

// A file of its own: nothing loaded the later chunk (lazy-step.ts) before this error arrives.
describe('server errors on the identifier step', () => {
  it('words an error of the identifier step from the catalog: the later chunk is asked for when the error arrives, and the words follow', async () => {
    // happy-dom has no WebAuthn; the passkey button shows only where the browser has it.
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    try {
      const m = await mountLoginBox('/account/login', {
        'POST /identity/resources/auth/v1/webauthn/prelogin': () => json({ errors: ['This passkey is not registered'] }, 400),
      }, { gatehouse: { flags: { 'show-passkeys-new': 'on' } }, vendor: { ...sampleVendor, secondaryLoginStrategies: [{ strategy: 'Passkeys', isActive: true }] }, mountOptions: { locale: 'de' } });
      fireEvent.click(await m.view.findByRole('button', { name: de['passkeys.signIn'] }));
      // The server's English sentence, in the user's words: server-errors.ts came with the later chunk.
      expect((await m.view.findByRole('alert')).textContent).toBe(de['errors.passkeyNotRegistered']);
      expect('errors.passkeyNotRegistered' in enFirst).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
