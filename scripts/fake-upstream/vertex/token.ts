import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';

/*
 * The fake's service account and OAuth token endpoint. The key pair is made when the module loads
 * (RSA, as Google issues them); the endpoint verifies each JWT assertion's RS256 signature with the
 * public half, as Google's does, and issues bearer tokens the generation routes then check.
 */

const pair = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
/** Another key: a service account signed with it is refused (invalid_grant), like a deleted key. */
const stranger = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});

export const FAKE_VERTEX_PROJECT = 'switchyard-test';
export const FAKE_VERTEX_EMAIL = 'relay@switchyard-test.iam.gserviceaccount.com';
/** What express-mode calls must carry as their API key. */
export const FAKE_VERTEX_API_KEY = 'AQ.fake-vertex-express-key';

/** The service account's JSON key file as Google hands it out, its token_uri at the fake. */
export function fakeServiceAccount(fakeUrl: string, opts: { refused?: boolean; project?: string } = {}): string {
  return JSON.stringify({
    type: 'service_account',
    project_id: opts.project ?? FAKE_VERTEX_PROJECT,
    private_key_id: 'fake-key-1',
    private_key: (opts.refused ? stranger : pair).privateKey,
    client_email: FAKE_VERTEX_EMAIL,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: `${fakeUrl}/token`,
  });
}

const invalidGrant = (description: string) => ({
  status: 400,
  body: { error: 'invalid_grant', error_description: description },
});

const b64json = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;

/** The token endpoint: `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT>`. */
export function createTokenIssuer() {
  const issued = new Map<string, number>();
  return {
    exchange(form: string): { status: number; body: object } {
      const q = new URLSearchParams(form);
      if (q.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' } };
      const parts = (q.get('assertion') ?? '').split('.');
      if (parts.length !== 3)
        return invalidGrant('Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.');
      const verify = createVerify('RSA-SHA256');
      verify.update(`${parts[0]}.${parts[1]}`);
      if (b64json(parts[0]).alg !== 'RS256' || !verify.verify(pair.publicKey, Buffer.from(parts[2], 'base64url')))
        return invalidGrant('Invalid JWT Signature.');
      const claims = b64json(parts[1]);
      const now = Date.now() / 1000;
      if (claims.iss !== FAKE_VERTEX_EMAIL) return invalidGrant('Invalid email or User ID');
      if (claims.aud !== 'https://oauth2.googleapis.com/token') return invalidGrant('Invalid JWT: audience');
      if (
        typeof claims.exp !== 'number' ||
        typeof claims.iat !== 'number' ||
        claims.exp < now ||
        claims.exp - claims.iat > 3600
      )
        return invalidGrant(
          'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.',
        );
      if (
        !String(claims.scope ?? '')
          .split(' ')
          .includes('https://www.googleapis.com/auth/cloud-platform')
      )
        return {
          status: 400,
          body: { error: 'invalid_scope', error_description: 'Invalid OAuth scope or ID token audience provided.' },
        };
      const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
      issued.set(token, Date.now() + 3600_000);
      return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
    },
    /** Whether `Authorization: Bearer <token>` carries a token this endpoint issued and that is still valid. */
    valid(authorization: string | undefined): boolean {
      const m = /^Bearer (\S+)$/.exec(authorization ?? '');
      return !!m && (issued.get(m[1]) ?? 0) > Date.now();
    },
  };
}
