import { describe, expect, it } from 'vitest';
import { decodeBase64Url, decodeTokenPayload, ILLEGAL_BASE64URL_MESSAGE, INVALID_TOKEN_MESSAGE, InvalidTokenError } from './token-payload';

const b64url = (text: string) => Buffer.from(text).toString('base64url');
const token = (payload: string) => `${b64url('{"alg":"RS256"}')}.${payload}.sig`;

describe('decodeTokenPayload (seed 000 section 5: malformed base64 tokens)', () => {
  it('reads the claims of a well-formed token, UTF-8 included', () => {
    expect(decodeTokenPayload(token(b64url('{"sub":"u1","name":"Zoë","tenantId":"t1"}')))).toEqual({ sub: 'u1', name: 'Zoë', tenantId: 't1' });
  });

  it("rejects what is not a three-part token with 'Invalid token specified'", () => {
    for (const bad of [undefined, null, 42, '', 'abc', 'a.b', 'a..c', 'a.b.c.d']) {
      expect(() => decodeTokenPayload(bad)).toThrow(new InvalidTokenError(INVALID_TOKEN_MESSAGE));
    }
  });

  it("rejects a payload that is base64url but not a JSON object with 'Invalid token specified'", () => {
    for (const payload of [b64url('not json'), b64url('[1,2]'), b64url('"text"'), b64url('null')]) {
      expect(() => decodeTokenPayload(token(payload))).toThrow(INVALID_TOKEN_MESSAGE);
    }
  });

  it("rejects a payload that is not base64url with 'Illegal base64url string!'", () => {
    for (const payload of ['ab+c', 'ab/c', 'abc=', 'a b', 'abcde', '%%%%']) {
      let caught: unknown;
      try {
        decodeTokenPayload(token(payload));
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ kind: 'InvalidTokenError', message: ILLEGAL_BASE64URL_MESSAGE });
    }
  });

  it("rejects bytes that are not UTF-8 with 'Illegal base64url string!'", () => {
    expect(() => decodeBase64Url(Buffer.from([0xff, 0xfe, 0xfd]).toString('base64url'))).toThrow(ILLEGAL_BASE64URL_MESSAGE);
  });
});
