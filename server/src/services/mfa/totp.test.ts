import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { hotp, totp as independentTotp, appCode } from '../../test/rfc6238';
import { matchTotp, newTotpSecret, totpCodeAt, totpUri } from './totp';

// RFC 6238 Appendix B: seeds are the ASCII strings below; T0 = 0, X = 30, 8 digits.
const seeds = {
  SHA1: Buffer.from('12345678901234567890'),
  SHA256: Buffer.from('12345678901234567890123456789012'),
  SHA512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const vectors: Array<[number, string, string, string]> = [
  // [unix seconds, SHA1, SHA256, SHA512]
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP against RFC 6238 Appendix B', () => {
  it.each(vectors)('T=%i: otpauth (the server library) gives the RFC codes for SHA1, SHA256 and SHA512', (t, sha1, sha256, sha512) => {
    for (const [algorithm, expected] of [['SHA1', sha1], ['SHA256', sha256], ['SHA512', sha512]] as const) {
      const otp = new TOTP({ algorithm, digits: 8, period: 30, secret: new Secret({ buffer: new Uint8Array(seeds[algorithm]).buffer }) });
      expect(otp.generate({ timestamp: t * 1000 })).toBe(expected);
    }
  });

  it.each(vectors)('T=%i: the independent test implementation gives the RFC codes too', (t, sha1, sha256, sha512) => {
    expect(independentTotp(seeds.SHA1, t * 1000, 8, 'sha1')).toBe(sha1);
    expect(independentTotp(seeds.SHA256, t * 1000, 8, 'sha256')).toBe(sha256);
    expect(independentTotp(seeds.SHA512, t * 1000, 8, 'sha512')).toBe(sha512);
  });

  it('the server check accepts the 6-digit form of the SHA1 vectors and reports their time step', () => {
    const base32 = new Secret({ buffer: new Uint8Array(seeds.SHA1).buffer }).base32;
    for (const [t, sha1] of vectors) expect(matchTotp(base32, sha1.slice(2), t * 1000)).toBe(Math.floor(t / 30));
  });

  it('RFC 4226 Appendix D HOTP values come out of the independent implementation', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expected.forEach((code, counter) => expect(hotp(seeds.SHA1, counter)).toBe(code));
  });
});

describe('server TOTP against an independent authenticator', () => {
  const secret = newTotpSecret();
  const now = 1_700_000_015_000;

  it('makes 160-bit base32 secrets and an otpauth URI apps understand', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(totpUri(secret, 'ada@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Gatehouse');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
  });

  it('accepts the app code of the current step and one step either side, and nothing further', () => {
    const step = Math.floor(now / 30_000);
    expect(totpCodeAt(secret, now)).toBe(appCode(secret, now));
    expect(matchTotp(secret, appCode(secret, now), now)).toBe(step);
    expect(matchTotp(secret, appCode(secret, now - 30_000), now)).toBe(step - 1);
    expect(matchTotp(secret, appCode(secret, now + 30_000), now)).toBe(step + 1);
    expect(matchTotp(secret, appCode(secret, now - 60_000), now)).toBeNull();
    expect(matchTotp(secret, appCode(secret, now + 60_000), now)).toBeNull();
  });

  it('refuses a code of another secret', () => {
    expect(matchTotp(secret, appCode(newTotpSecret(), now), now)).toBeNull();
  });
});
