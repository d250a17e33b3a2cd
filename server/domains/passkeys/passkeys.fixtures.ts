import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/*
 * A software authenticator for tests over HTTP: what a browser and a platform authenticator together answer
 * to navigator.credentials.create/get, as the JSON new-api's console and @simplewebauthn/browser send
 * (base64url fields). Real ES256 keys and signatures, 'none' attestation, discoverable credentials that
 * keep the user handle. The server checks it with the same library code as a real browser's answer.
 */

type Json = Record<string, unknown>;

/** Just enough CBOR (RFC 8949) for an attestation object and a COSE key: maps, ints, text and bytes. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map)
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error(`cbor: unsupported ${typeof value}`);
}

const b64url = (b: Buffer) => b.toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();

interface Credential {
  id: Buffer;
  rpId: string;
  userHandle: Buffer;
  key: KeyObject;
  counter: number;
}

export interface SoftAuthenticatorOptions {
  /** Whether the user verifies (PIN, biometrics); default true. */
  userVerified?: boolean;
  /** Counting authenticators raise the signature counter on every use; some (synced passkeys) stay at 0. */
  counts?: boolean;
}

export function softAuthenticator(opts: SoftAuthenticatorOptions = {}) {
  const credentials: Credential[] = [];
  const uv = opts.userVerified ?? true;
  const counts = opts.counts ?? true;

  const authData = (c: Credential, attested: boolean) => {
    const flags = 0x01 | (uv ? 0x04 : 0) | (attested ? 0x40 : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(c.counter);
    if (!attested) return Buffer.concat([sha256(c.rpId), Buffer.from([flags]), count]);
    const jwk = c.key.export({ format: 'jwk' });
    const coseKey = new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.from([c.id.length >> 8, c.id.length & 255]);
    return Buffer.concat([
      sha256(c.rpId),
      Buffer.from([flags]),
      count,
      Buffer.alloc(16),
      idLength,
      c.id,
      cbor(coseKey),
    ]);
  };

  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    credentials,

    /** navigator.credentials.create({publicKey}) with the options JSON the server gave (base64url fields). */
    create(options: object, origin: string) {
      const publicKey = options as Json;
      const rp = publicKey.rp as { id: string };
      const user = publicKey.user as { id: string };
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const c: Credential = {
        id: randomBytes(16),
        rpId: rp.id,
        userHandle: Buffer.from(user.id, 'base64url'),
        key: privateKey,
        counter: 0,
      };
      credentials.push(c);
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData(c, true)],
        ]),
      );
      return {
        id: b64url(c.id),
        rawId: b64url(c.id),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', String(publicKey.challenge), origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },

    /** navigator.credentials.get({publicKey}): the newest credential for the RP the options allow. */
    get(options: object, origin: string) {
      const publicKey = options as Json;
      const allowed = ((publicKey.allowCredentials as { id: string }[] | undefined) ?? []).map((a) => a.id);
      const c = credentials
        .filter((x) => x.rpId === publicKey.rpId && (allowed.length === 0 || allowed.includes(b64url(x.id))))
        .at(-1);
      if (!c) throw new Error('NotAllowedError: no credential for this site');
      if (counts) c.counter += 1;
      const data = authData(c, false);
      const client = clientData('webauthn.get', String(publicKey.challenge), origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), c.key);
      return {
        id: b64url(c.id),
        rawId: b64url(c.id),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle: b64url(c.userHandle),
        },
        clientExtensionResults: {},
      };
    },
  };
}
