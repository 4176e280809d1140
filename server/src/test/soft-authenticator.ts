/**
 * A software WebAuthn authenticator for tests: a real ES256 key pair (node:crypto), real
 * attestation objects (fmt 'none', CBOR) and real assertion signatures, so the server's
 * verification runs end to end. Every field a test wants to get wrong can be overridden.
 * The CBOR encoder below is the small subset WebAuthn needs (RFC 8949 major types 0-5), written
 * here instead of adding a dependency, and independent of the library under test.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** Encodes integers, text, byte strings, arrays and maps (definite lengths only). */
export function cborEncode(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cborEncode)]);
  const entries: [Cbor, Cbor][] = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cborEncode(k), cborEncode(v)])]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface CeremonyOverrides {
  /** The challenge put into clientDataJSON (default: the one from the options). */
  challenge?: string;
  origin?: string;
  /** The RP ID whose hash goes into authenticatorData (default: the options' RP ID). */
  rpId?: string;
  type?: string;
  /** Signature counter to report (default: the authenticator's next value). */
  counter?: number;
  userVerified?: boolean;
  /** Flip a byte of the signature. */
  corruptSignature?: boolean;
}

/** One authenticator holding one discoverable credential. */
export class SoftAuthenticator {
  readonly credentialId: Buffer = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Buffer;
  private counter = 0;
  private userHandle: string | undefined;

  constructor(
    private readonly rpId = 'localhost',
    private readonly origin = 'http://localhost:8787',
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    // COSE_Key for ES256: kty EC2 (2), alg -7, crv P-256 (1), x, y.
    this.cosePublicKey = cborEncode(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private authData(rpId: string, flags: number, counter: number, attested: Buffer | null): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  /** navigator.credentials.create() for options from the server; returns RegistrationResponseJSON. */
  create(options: { challenge: string; user: { id: string } }, o: CeremonyOverrides = {}) {
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.cosePublicKey]);
    const flags = FLAG_UP | FLAG_AT | (o.userVerified === false ? 0 : FLAG_UV);
    const authData = this.authData(o.rpId ?? this.rpId, flags, o.counter ?? this.counter, attested);
    const attestationObject = cborEncode({ fmt: 'none', attStmt: {}, authData });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData(o.type ?? 'webauthn.create', o.challenge ?? options.challenge, o.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() for options from the server; returns AuthenticationResponseJSON. */
  get(options: { challenge: string }, o: CeremonyOverrides = {}) {
    const counter = o.counter ?? (this.counter += 1);
    const flags = FLAG_UP | (o.userVerified === false ? 0 : FLAG_UV);
    const authData = this.authData(o.rpId ?? this.rpId, flags, counter, null);
    const clientDataJSON = this.clientData(o.type ?? 'webauthn.get', o.challenge ?? options.challenge, o.origin ?? this.origin);
    // ES256 over authenticatorData || SHA-256(clientDataJSON), DER-encoded as WebAuthn requires.
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    if (o.corruptSignature) signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0xff, signature.length - 1);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}
