import { describe, expect, it } from 'vitest';
import { fromBase64url, isCeremonyCancelled, toBase64url, CeremonyCancelled } from './webauthn';

describe('webauthn helpers', () => {
  it('round-trips bytes through base64url without padding or + and /', () => {
    const bytes = new Uint8Array([0, 251, 255, 62, 63, 1, 2]);
    const text = toBase64url(bytes.buffer);
    expect(text).toBe('APv_Pj8BAg');
    expect(new Uint8Array(fromBase64url(text))).toEqual(bytes);
    expect(new Uint8Array(fromBase64url(''))).toEqual(new Uint8Array([]));
  });

  it('recognises a cancelled ceremony by its kind, not its class', () => {
    expect(isCeremonyCancelled(new CeremonyCancelled('x'))).toBe(true);
    expect(isCeremonyCancelled({ kind: 'ceremonyCancelled' })).toBe(true);
    expect(isCeremonyCancelled(new Error('x'))).toBe(false);
  });
});
