/*
 * Spark's API versions (https://www.xfyun.cn/doc/spark/Web.html): each is a WebSocket path with
 * its own `domain` parameter, and Spark refuses a domain that does not belong to the path. The
 * version comes from the model name (`SparkDesk-v3.5`, as new-api reads it) or else the channel's
 * `other` (new-api's api_version; v2.1 when empty, shared/schemas/channels.ts).
 */

export interface SparkVersion {
  /** The WebSocket path on the API host. */
  path: string;
  /** The `parameter.chat.domain` this path takes. */
  domain: string;
  /** The largest `max_tokens` the version takes (Spark refuses more). */
  maxTokens: number;
  /** Whether a `system` message is taken (older versions get it as a user turn, as new-api sends it). */
  system: boolean;
}

const v = (path: string, domain: string, maxTokens: number, system = true): SparkVersion => ({
  path,
  domain,
  maxTokens,
  system,
});

/** The versions Spark documents, by the name `other` and model names use. */
export const SPARK_VERSIONS: Readonly<Record<string, SparkVersion>> = {
  'v1.1': v('/v1.1/chat', 'lite', 4096, false),
  'v2.1': v('/v2.1/chat', 'generalv2', 8192, false),
  'v3.1': v('/v3.1/chat', 'generalv3', 8192),
  'pro-128k': v('/chat/pro-128k', 'pro-128k', 4096),
  'v3.5': v('/v3.5/chat', 'generalv3.5', 8192),
  'max-32k': v('/chat/max-32k', 'max-32k', 8192),
  'v4.0': v('/v4.0/chat', '4.0Ultra', 8192),
};

/** Product names Spark's console shows, for the versions above. */
const ALIASES: Readonly<Record<string, string>> = {
  lite: 'v1.1',
  pro: 'v3.1',
  max: 'v3.5',
  ultra: 'v4.0',
  '4.0ultra': 'v4.0',
};

export const DEFAULT_SPARK_VERSION = 'v2.1';

const BY_DOMAIN = new Map(Object.values(SPARK_VERSIONS).map((x) => [x.domain.toLowerCase(), x]));

/**
 * A version by name (`v3.5`), product name (`max`) or domain (`generalv3.5`); an undocumented `vX.Y`
 * is sent as new-api sends it (path `/vX.Y/chat`, domain `generalvX.Y`) and Spark answers for it.
 * Anything else is not a version.
 */
export function sparkVersion(name: string): SparkVersion | undefined {
  const key = name.trim().toLowerCase();
  const known = SPARK_VERSIONS[ALIASES[key] ?? key] ?? BY_DOMAIN.get(key);
  if (known) return known;
  return /^v\d+(\.\d+)?$/.test(key) ? v(`/${key}/chat`, `general${key}`, 8192) : undefined;
}

/**
 * The version of one attempt: the model's (`SparkDesk-v3.5`, `SparkDesk-pro-128k`, a version or domain
 * as the whole name, or, as new-api reads it, the part after the dash of any `name-version`), else
 * the channel's `other`, else v2.1.
 */
export function sparkVersionFor(model: string, other: string): SparkVersion {
  const name = model.trim();
  const parts = name.split('-');
  const fromModel = /^sparkdesk-/i.test(name)
    ? sparkVersion(name.slice('sparkdesk-'.length))
    : (sparkVersion(name) ?? (parts.length === 2 ? sparkVersion(parts[1]) : undefined));
  return fromModel ?? sparkVersion(other) ?? (sparkVersion(DEFAULT_SPARK_VERSION) as SparkVersion);
}
