import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { seaVersion } from './sea-assets.ts';
import { type TelemetryConfig, TelemetryConfigError, telemetryConfig } from './telemetry/otel-config.ts';

const booleanString = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');

/** Azure OpenAI's api-version for channels that name none, when AZURE_DEFAULT_API_VERSION is unset. */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

const envSchema = z.object({
  /** TCP port for console, REST API and relay (one port). */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Interface to bind; loopback-only deployments can set 127.0.0.1. */
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Folder for the SQLite file, the persisted session secret and other state. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** A SQLite file path, or a postgres:// URL. Defaults to DATA_DIR/switchyard.db. */
  SQL_DSN: z.string().optional(),
  /** Redis URL shared by several instances (rate limits, cache invalidation). Optional. */
  REDIS_URL: z.string().optional(),
  /** Starts every Redis key and pub/sub channel, so several deployments can share one Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .max(100)
    .regex(/^\S*$/, 'REDIS_KEY_PREFIX must not contain spaces')
    .default('switchyard:'),
  /** Secret signing the session cookie; generated and kept in DATA_DIR when absent. */
  SESSION_SECRET: z.string().min(16, 'SESSION_SECRET must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Trust X-Forwarded-* headers (true/false, or a hop count / CIDR list understood by Fastify). */
  TRUST_PROXY: z.string().default('false'),
  /** Largest accepted request body in bytes (relay bodies can carry images). */
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(32 * 1024 * 1024),
  /** Create an unlimited default token for each new user. */
  GENERATE_DEFAULT_TOKEN: booleanString.default(false),
  /** Requests per IP per window on /api and /trpc (0 = off), like new-api's GLOBAL_API_RATE_LIMIT. */
  GLOBAL_API_RATE_LIMIT: z.coerce.number().int().min(0).default(600),
  GLOBAL_API_RATE_LIMIT_DURATION: z.coerce.number().int().min(1).default(60),
  /** Requests per IP per window on the relay (0 = off). */
  GLOBAL_RELAY_RATE_LIMIT: z.coerce.number().int().min(0).default(6000),
  GLOBAL_RELAY_RATE_LIMIT_DURATION: z.coerce.number().int().min(1).default(60),
  /** How often unfinished Midjourney/Suno tasks are polled upstream. */
  TASK_POLL_INTERVAL_MS: z.coerce.number().int().min(100).default(15_000),
  /** On SIGTERM, how long in-flight requests (streams) may run on before their connections are cut. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** Bearer token for /metrics; without it /metrics answers loopback clients only. */
  METRICS_TOKEN: z.string().optional(),
  /** api-version of Azure OpenAI channels that name none in their settings (new-api's variable); empty = the default. */
  AZURE_DEFAULT_API_VERSION: z
    .string()
    .trim()
    .regex(/^[\w.-]*$/, 'AZURE_DEFAULT_API_VERSION must be an api-version such as 2024-10-21 or 2025-01-01-preview')
    .default(''),
  /** The update check's release feed: GitHub's "latest release" JSON of the project (empty = no check). */
  UPDATE_FEED_URL: z
    .string()
    .trim()
    .regex(/^(https?:\/\/\S+)?$/i, 'UPDATE_FEED_URL must be an http(s) URL')
    .default(''),
  /** Serve the built-in demo upstream and let admins add a demo channel (try the gateway without a provider key). */
  DEMO_CHANNEL: booleanString.default(false),
  /** Folder with the built console; served when present. */
  CLIENT_DIST: z.string().default('./dist/client'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };
  redisUrl?: string;
  redisKeyPrefix: string;
  sessionSecret: string;
  logLevel: Env['LOG_LEVEL'];
  /** true/false, or a Fastify trust-proxy value (hop count or CIDR list as text). */
  trustProxy: boolean | string;
  bodyLimit: number;
  generateDefaultToken: boolean;
  clientDist: string;
  metricsToken?: string;
  taskPollIntervalMs: number;
  shutdownTimeoutMs: number;
  /** api-version sent to Azure OpenAI channels without their own (relay.md §8). */
  azureDefaultApiVersion: string;
  /** GitHub-style "latest release" JSON for the update check; '' = not configured. */
  updateFeedUrl: string;
  /** DEMO_CHANNEL: the demo upstream under /demo-upstream/v1 and the channels page's "add demo channel". */
  demoChannel: boolean;
  ipRateLimits: { api: { count: number; windowSeconds: number }; relay: { count: number; windowSeconds: number } };
  version: string;
  /** OpenTelemetry traces (OTEL_* variables, server/telemetry/); undefined = off. */
  telemetry?: TelemetryConfig;
}

export class ConfigError extends Error {}

/** Parses the environment once; every problem is reported together. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  let telemetry: TelemetryConfig | undefined;
  try {
    telemetry = telemetryConfig(env);
  } catch (err) {
    if (err instanceof TelemetryConfigError) throw new ConfigError(`Invalid configuration:\n  ${err.message}`);
    throw err;
  }
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: parseDsn(e.SQL_DSN, dataDir),
    redisUrl: e.REDIS_URL || undefined,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    sessionSecret: e.SESSION_SECRET ?? persistedSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    bodyLimit: e.BODY_LIMIT,
    generateDefaultToken: e.GENERATE_DEFAULT_TOKEN,
    clientDist: path.resolve(e.CLIENT_DIST),
    metricsToken: e.METRICS_TOKEN || undefined,
    taskPollIntervalMs: e.TASK_POLL_INTERVAL_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    azureDefaultApiVersion: e.AZURE_DEFAULT_API_VERSION || DEFAULT_AZURE_API_VERSION,
    updateFeedUrl: e.UPDATE_FEED_URL,
    demoChannel: e.DEMO_CHANNEL,
    ipRateLimits: {
      api: { count: e.GLOBAL_API_RATE_LIMIT, windowSeconds: e.GLOBAL_API_RATE_LIMIT_DURATION },
      relay: { count: e.GLOBAL_RELAY_RATE_LIMIT, windowSeconds: e.GLOBAL_RELAY_RATE_LIMIT_DURATION },
    },
    version: readVersion(),
    telemetry,
  };
}

function parseDsn(dsn: string | undefined, dataDir: string): Config['database'] {
  if (!dsn) return { dialect: 'sqlite', file: path.join(dataDir, 'switchyard.db') };
  if (/^postgres(ql)?:\/\//.test(dsn)) return { dialect: 'postgres', url: dsn };
  if (/^[a-z]+:\/\//i.test(dsn))
    throw new ConfigError(`SQL_DSN: unsupported database URL scheme in "${dsn.split(':')[0]}://..."`);
  return { dialect: 'sqlite', file: path.resolve(dsn.replace(/^(sqlite|file):/, '')) };
}

function parseTrustProxy(v: string): boolean | string {
  if (v === 'true') return true;
  if (v === 'false' || v === '') return false;
  return v;
}

/** A generated secret is written once so sessions survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function readVersion(): string {
  // The single executable has no package.json beside its code: its build recorded the version.
  const packaged = seaVersion();
  if (packaged) return `v${packaged}`;
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    return `v${pkg.version}`;
  } catch {
    return 'v0.0.0';
  }
}
