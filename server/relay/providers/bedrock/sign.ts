import type { SignatureV4 } from '@smithy/signature-v4';
import { refusal } from '../../errors.ts';
import type { UpstreamRequest } from '../types.ts';

/** A Bedrock channel key: `AccessKeyId|SecretAccessKey|region` (new-api's format). */
export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export function parseBedrockKey(key: string): BedrockCredentials {
  const [accessKeyId, secretAccessKey, region] = key.split('|').map((s) => s.trim());
  if (!accessKeyId || !secretAccessKey || !region)
    throw refusal(
      500,
      'An AWS Bedrock channel key must read AccessKeyId|SecretAccessKey|Region',
      'AWS Bedrock 渠道密钥格式应为 AccessKeyId|SecretAccessKey|Region',
      'channel_config_error',
    );
  return { accessKeyId, secretAccessKey, region };
}

// The AWS SDK's signer loads with the first Bedrock request: a gateway without Bedrock channels never holds it.
let sdk: Promise<[typeof import('@aws-crypto/sha256-js'), typeof import('@smithy/signature-v4')]> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import('@aws-crypto/sha256-js'), import('@smithy/signature-v4')]));

// One signer per key, so the signing key it derives (valid for a day) is derived once.
const signers = new Map<string, SignatureV4>();

async function signerFor(c: BedrockCredentials): Promise<SignatureV4> {
  const id = `${c.accessKeyId}|${c.region}|${c.secretAccessKey}`;
  let s = signers.get(id);
  if (!s) {
    const [{ Sha256 }, { SignatureV4 }] = await loadSdk();
    if (signers.size > 256) signers.clear();
    s = new SignatureV4({
      credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
      region: c.region,
      service: 'bedrock',
      sha256: Sha256,
    });
    signers.set(id, s);
  }
  return s;
}

/**
 * Signs a request with AWS Signature Version 4 (the SDK's own signer, path escaped as the
 * Bedrock runtime client does); the returned headers carry host, x-amz-date and authorization.
 */
export async function signBedrockRequest(req: UpstreamRequest, c: BedrockCredentials): Promise<UpstreamRequest> {
  const url = new URL(req.url);
  const headers: Record<string, string> = { ...req.headers, host: url.host };
  const signer = await signerFor(c);
  const signed = await signer.sign({
    method: req.method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: {},
    headers,
    body: req.body,
  });
  return { ...req, headers: signed.headers };
}
