import type { Env } from '../../server/config.ts';

/*
 * The single executable's --help. One line per environment variable the gateway reads (the
 * docs/configuration.md has the details); the type makes forgetting one a compile error.
 */

const VARIABLES: Record<keyof Env | 'SWITCHYARD_MALLOC', string> = {
  PORT: 'port of the console, REST API and relay (3000)',
  HOST: 'interface to bind (0.0.0.0)',
  DATA_DIR: 'folder for the SQLite file, the session secret and the extracted cache (./data)',
  SQL_DSN: 'a SQLite file path or postgres://user:pass@host/db (DATA_DIR/switchyard.db)',
  REDIS_URL: 'Redis shared by several instances: rate limits, cache invalidation (unset)',
  REDIS_KEY_PREFIX: 'prefix of every Redis key and channel (switchyard:)',
  SESSION_SECRET: 'signs the session cookie (generated, kept in DATA_DIR/session-secret)',
  LOG_LEVEL: 'fatal, error, warn, info, debug, trace or silent (info)',
  TRUST_PROXY: 'trust X-Forwarded-*: true, a hop count or a CIDR list (false)',
  BODY_LIMIT: 'largest request body in bytes (33554432)',
  GENERATE_DEFAULT_TOKEN: 'give every new user an unlimited token (false)',
  GLOBAL_API_RATE_LIMIT: 'requests per IP per window on /api and /trpc, 0 = off (600)',
  GLOBAL_API_RATE_LIMIT_DURATION: 'that window in seconds (60)',
  GLOBAL_RELAY_RATE_LIMIT: 'requests per IP per window on the relay, 0 = off (6000)',
  GLOBAL_RELAY_RATE_LIMIT_DURATION: 'that window in seconds (60)',
  TASK_POLL_INTERVAL_MS: 'how often unfinished Midjourney/Suno tasks are polled (15000)',
  SHUTDOWN_TIMEOUT_MS: 'on SIGTERM, how long running streams may go on (30000)',
  METRICS_TOKEN: 'bearer token for /metrics; without it loopback only (unset)',
  AZURE_DEFAULT_API_VERSION: 'api-version of Azure OpenAI channels that name none (2024-10-21)',
  UPDATE_FEED_URL: 'GitHub-style latest-release JSON for the update check (unset)',
  DEMO_CHANNEL: 'serve a built-in fake upstream and offer a demo channel, to try without a provider key (false)',
  CLIENT_DIST: 'serve this console build instead of the embedded one (unset)',
  SWITCHYARD_MALLOC: 'system: keep glibc malloc even where libjemalloc2 is installed (unset)',
};

export function helpText(version: string): string {
  const width = Math.max(...Object.keys(VARIABLES).map((k) => k.length)) + 2;
  return [
    `Switchyard ${version}: a self-hosted gateway for AI model APIs, in one file.`,
    '',
    'Usage:',
    '  switchyard                       start the gateway (console, API and relay on PORT)',
    '  switchyard import <db> [--from new-api|one-api]',
    '                                   import a new-api / one-api SQLite database into the',
    '                                   configured one (idempotent); restart running gateways after',
    '  switchyard healthcheck           exit 0 when the gateway on PORT answers /healthz',
    '  switchyard --version             print the version',
    '  switchyard --help                print this help',
    '',
    'Configured by environment variables:',
    ...Object.entries(VARIABLES).map(([name, text]) => `  ${name.padEnd(width)}${text}`),
    '',
    'The console and the native addons are extracted once into DATA_DIR/cache. Node flags and',
    'jemalloc (when libjemalloc2 is installed) are set as `npm start` sets them: the executable',
    'starts itself once more with them. Documentation: README.md, Quick start.',
  ].join('\n');
}
