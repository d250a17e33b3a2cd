import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { isAdmin, TokenStatus, UserStatus } from '../../shared/constants.ts';
import type { AppDeps } from '../context.ts';
import { mayUseGroup } from '../domains/options/options.rules.ts';
import { findTokenByKey, setTokenStatus } from '../domains/tokens/tokens.repo.ts';
import { findRelayUser } from '../domains/users/users.repo.ts';
import { rememberPrincipal } from './accounting.ts';
import { relayRefusal } from './errors.ts';
import { type RelayPrincipal, type RelayToken, type RelayUser, toRelayUser } from './principal.ts';

const CACHE_TTL_MS = 10_000;
const CACHE_MAX = 20_000;

interface TokenEntry {
  tokenId: number;
  status: number;
  expiredTime: number;
  remainQuota: number;
  group: string;
  allow: BlockList | null;
  token: RelayToken;
  user: RelayUser | null;
}

interface Cached {
  entry: TokenEntry | null;
  at: number;
}

/** The key as the client sent it (`sk-` prefix optional): Bearer, x-api-key, x-goog-api-key or ?key=. */
export function extractKey(req: FastifyRequest): string {
  const auth = req.headers.authorization;
  let key: string;
  if (auth) key = auth.replace(/^Bearer\s+/i, '');
  else if (typeof req.headers['x-api-key'] === 'string') key = req.headers['x-api-key'];
  else if (typeof req.headers['x-goog-api-key'] === 'string') key = req.headers['x-goog-api-key'];
  else key = String((req.query as Record<string, unknown> | undefined)?.key ?? '');
  key = key.trim();
  return key.startsWith('sk-') ? key.slice(3) : key;
}

/** Exact IPs and CIDR ranges, one per line (commas accepted); null when the list is empty. */
export function parseAllowList(text: string): BlockList | null {
  const items = text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) return null;
  const list = new BlockList();
  for (const item of items) {
    const [addr, bits] = item.split('/');
    const family = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (isIP(addr) === 0) continue;
    if (bits !== undefined) list.addSubnet(addr, Number(bits), family);
    else list.addAddress(addr, family);
  }
  return list;
}

function ipAllowed(list: BlockList, ip: string): boolean {
  const plain = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  return isIP(plain) !== 0 && list.check(plain, family);
}

export type TokenAuth = ReturnType<typeof createTokenAuth>;

/**
 * Relay key authentication with an in-memory cache (relay.md §2): no database
 * read per request. Any token or user write publishes on the bus and empties the
 * cache; a short TTL bounds staleness if a publish is ever missed.
 */
export function createTokenAuth(deps: AppDeps) {
  const cache = new Map<string, Cached>();
  const clear = () => cache.clear();
  const unsubscribe = [deps.bus.subscribe('tokens', clear), deps.bus.subscribe('users', clear)];

  async function load(key: string): Promise<TokenEntry | null> {
    const row = await findTokenByKey(deps.db, key);
    if (!row) return null;
    const user = await findRelayUser(deps.db, row.user_id);
    const limits = row.model_limits_enabled === 1 ? row.model_limits.split(',').map((m) => m.trim()) : null;
    return {
      tokenId: Number(row.id),
      status: row.status,
      expiredTime: Number(row.expired_time),
      remainQuota: Number(row.remain_quota),
      group: row.group,
      allow: parseAllowList(row.allow_ips),
      user: user ? toRelayUser(user) : null,
      token: {
        id: Number(row.id),
        name: row.name,
        cacheKey: key,
        unlimited: row.unlimited_quota === 1,
        modelLimits: limits ? new Set(limits.filter(Boolean)) : null,
        rateLimit:
          row.rate_limit_enabled === 1
            ? { period: row.rate_limit_period, count: row.rate_limit_count, success: row.rate_limit_success }
            : null,
      },
    };
  }

  async function lookup(key: string): Promise<TokenEntry | null> {
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.entry;
    const entry = await load(key);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, { entry, at: Date.now() });
    return entry;
  }

  /** Marks a token expired/exhausted in the database; the bus empties every cache. */
  function setStatus(tokenId: number, status: number) {
    setTokenStatus(deps.db, tokenId, status)
      .then(() => deps.bus.publish('tokens', String(tokenId)))
      .catch((err) => deps.log.error({ err }, 'token status update failed'));
  }

  return {
    /** Checks in relay.md §2 order; the model limit is checked later by `checkModel`, once the body is read. */
    async authenticate(req: FastifyRequest): Promise<RelayPrincipal> {
      const raw = extractKey(req);
      if (raw === '') throw relayRefusal(401, 'relay.no_key', 'invalid_api_key');
      const dash = raw.indexOf('-');
      const key = dash > 0 ? raw.slice(0, dash) : raw;
      const entry = await lookup(key);
      if (!entry) throw relayRefusal(401, 'relay.invalid_token', 'invalid_api_key');
      if (entry.status === TokenStatus.Exhausted)
        throw relayRefusal(401, 'billing.token_quota_exhausted', 'token_quota_exhausted');
      if (entry.status === TokenStatus.Expired) throw relayRefusal(401, 'relay.token_expired', 'token_expired');
      if (entry.status !== TokenStatus.Enabled) throw relayRefusal(401, 'relay.token_disabled', 'token_disabled');
      if (entry.expiredTime !== -1 && entry.expiredTime < Date.now() / 1000) {
        setStatus(entry.tokenId, TokenStatus.Expired);
        throw relayRefusal(401, 'relay.token_expired', 'token_expired');
      }
      if (!entry.token.unlimited && entry.remainQuota <= 0) {
        setStatus(entry.tokenId, TokenStatus.Exhausted);
        throw relayRefusal(401, 'billing.token_quota_exhausted', 'token_quota_exhausted');
      }
      if (entry.allow && !ipAllowed(entry.allow, req.ip))
        throw relayRefusal(403, 'relay.ip_not_allowed', 'ip_not_allowed', { ip: req.ip });
      const user = entry.user;
      if (!user) throw relayRefusal(401, 'relay.invalid_token', 'invalid_api_key');
      if (user.status !== UserStatus.Enabled) throw relayRefusal(403, 'auth.user_banned', 'user_banned');
      const group = checkGroup(deps, user, entry.group);
      let pinnedChannelId: number | null = null;
      if (dash > 0) {
        if (!isAdmin(user.role)) throw relayRefusal(403, 'relay.channel_pin_forbidden', 'channel_pin_forbidden');
        pinnedChannelId = Number(raw.slice(dash + 1));
        if (!Number.isSafeInteger(pinnedChannelId))
          throw relayRefusal(400, 'relay.invalid_channel_id', 'invalid_channel_id');
      }
      const principal: RelayPrincipal = { user, token: entry.token, group, pinnedChannelId };
      rememberPrincipal(req, principal);
      return principal;
    },
    /** Called when a reservation finds the token empty, so the caller's next request re-reads it. */
    forget(p: RelayPrincipal) {
      if (p.token) cache.delete(p.token.cacheKey);
    },
    close() {
      for (const u of unsubscribe) u();
    },
  };
}

/** The group that prices and routes: the token's (must be usable by the user) or the user's own. */
export function checkGroup(deps: AppDeps, user: RelayUser, requested: string): string {
  const group = requested || user.group;
  if (requested && !mayUseGroup(deps.services.options.get('UserUsableGroups'), user.group, requested))
    throw relayRefusal(403, 'relay.group_forbidden', 'group_not_allowed', { group: requested });
  if (!Object.hasOwn(deps.services.options.get('GroupRatio'), group))
    throw relayRefusal(403, 'relay.group_retired', 'group_not_allowed', { group });
  return group;
}

/** The token's model limit (relay.md §2), checked once the body names the model. */
export function checkModel(token: RelayToken | null, model: string): void {
  if (token?.modelLimits && !token.modelLimits.has(model))
    throw relayRefusal(403, 'relay.model_forbidden', 'model_not_allowed', { model });
}
