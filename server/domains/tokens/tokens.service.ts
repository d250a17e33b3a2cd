import { randomAlphanumeric } from '../../random.ts';
import { MAX_TOKEN_NAME_LENGTH, TOKEN_KEY_LENGTH, TokenStatus } from '../../../shared/constants.ts';
import {
  type CreateTokenInput,
  type TokenFields,
  type TokenStatusInput,
  type UpdateTokenInput,
} from '../../../shared/schemas/tokens.ts';
import type { AuthUser, Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import type { Db } from '../../db/types.ts';
import type { TokenRow } from './tokens.table.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import { mayUseGroup } from '../options/options.rules.ts';
import type { OptionsService } from '../options/options.service.ts';
import {
  countUserTokens,
  findUserToken,
  insertToken,
  keyExists,
  listUserTokens,
  listUserTokensByIds,
  softDeleteUserTokens,
  type TokenFilter,
  type TokenPatch,
  updateUserToken,
} from './tokens.repo.ts';

export type TokensService = ReturnType<typeof createTokensService>;
type Owner = Pick<AuthUser, 'id' | 'group'>;

/** The wire shape: new-api's Token (booleans as booleans, the key without `sk-`, `DeletedAt`). */
export function toTokenView(row: TokenRow) {
  const { deleted_at: _deleted, ...rest } = row;
  return {
    ...rest,
    unlimited_quota: row.unlimited_quota === 1,
    model_limits_enabled: row.model_limits_enabled === 1,
    rate_limit_enabled: row.rate_limit_enabled === 1,
    DeletedAt: null,
  };
}
export type TokenView = ReturnType<typeof toTokenView>;

const columnsOf = (f: TokenFields): TokenPatch => ({
  name: f.name,
  expired_time: f.expired_time,
  remain_quota: f.remain_quota,
  unlimited_quota: f.unlimited_quota ? 1 : 0,
  model_limits_enabled: f.model_limits_enabled ? 1 : 0,
  model_limits: f.model_limits,
  allow_ips: f.allow_ips,
  group: f.group,
  rate_limit_enabled: f.rate_limit_enabled ? 1 : 0,
  rate_limit_period: f.rate_limit_period,
  rate_limit_count: f.rate_limit_count,
  rate_limit_success: f.rate_limit_success,
});

/**
 * API tokens. Every call is scoped to the owner: another user's token is simply
 * "not found". Every write publishes the key on the `tokens` topic, because the
 * relay caches tokens by key.
 */
export function createTokensService(infra: Infra, options: OptionsService) {
  const { db, bus } = infra;

  /** The same rule as GET /api/user/self/groups: usable groups that have a ratio, or the user's own group. */
  function checkGroup(owner: Owner, group: string) {
    if (group === '' || group === owner.group) return;
    const usable = mayUseGroup(options.get('UserUsableGroups'), owner.group, group);
    if (!usable || !Object.hasOwn(options.get('GroupRatio'), group)) throw badRequest('token.group_forbidden');
  }

  async function getOwned(owner: Owner, id: number): Promise<TokenRow> {
    const row = await findUserToken(db, owner.id, id);
    if (!row) throw notFound('token.not_found');
    return row;
  }

  /** Checked on the transaction's own connection: SQLite has only one, so `db` would wait forever. */
  async function uniqueKey(trx: Db): Promise<string> {
    for (let i = 0; i < 5; i++) {
      const key = randomAlphanumeric(TOKEN_KEY_LENGTH);
      if (!(await keyExists(trx, key))) return key;
    }
    throw new AppError('INTERNAL', 'token.generate_failed');
  }

  /** One range of the caller's tokens (optionally filtered) with the total that matches. */
  async function listRange(owner: Owner, filter: TokenFilter, offset: number, limit: number) {
    const [rows, total] = await Promise.all([
      listUserTokens(db, owner.id, filter, offset, limit),
      countUserTokens(db, owner.id, filter),
    ]);
    return { items: rows.map(toTokenView), total };
  }

  return {
    /** GET /api/token/: `page` is 0-based. */
    async list(owner: Owner, page: number, size: number): Promise<TokenView[]> {
      return (await listUserTokens(db, owner.id, {}, page * size, size)).map(toTokenView);
    },

    listRange,

    /** The console's list: 1-based page with a total. */
    listPage: (owner: Owner, page: number, pageSize: number, filter: TokenFilter) =>
      listRange(owner, filter, (page - 1) * pageSize, pageSize),

    /** GET /api/token/search: unpaginated in new-api; capped so one call cannot dump a huge table. */
    async search(owner: Owner, filter: TokenFilter): Promise<TokenView[]> {
      return (await listUserTokens(db, owner.id, filter, 0, 1000)).map(toTokenView);
    },

    get: async (owner: Owner, id: number) => toTokenView(await getOwned(owner, id)),

    /** POST /api/token/:id/key: the full key (without `sk-`) of one of the caller's own tokens. */
    revealKey: async (owner: Owner, id: number): Promise<string> => (await getOwned(owner, id)).key,

    /** POST /api/token/batch/keys: id -> full key for the caller's own tokens among `ids`; others' are left out. */
    async revealKeys(owner: Owner, ids: number[]): Promise<Record<number, string>> {
      const rows = await listUserTokensByIds(db, owner.id, [...new Set(ids)]);
      return Object.fromEntries(rows.map((r) => [r.id, r.key]));
    },

    /** Creates `count` tokens; answers their keys (without `sk-`). */
    async create(owner: Owner, input: CreateTokenInput): Promise<string[]> {
      checkGroup(owner, input.group);
      const keys = await db.transaction().execute(async (trx) => {
        const made: string[] = [];
        for (let i = 0; i < input.count; i++) {
          const key = await uniqueKey(trx);
          // The extra tokens' suffix must leave the name within the limit, or none of them could be saved again.
          const base = [...input.name].slice(0, MAX_TOKEN_NAME_LENGTH - 7).join('');
          const name = i === 0 ? input.name : `${base}-${randomAlphanumeric(6)}`;
          await insertToken(trx, {
            ...columnsOf(input),
            name,
            user_id: owner.id,
            key,
            status: TokenStatus.Enabled,
            created_time: nowSeconds(),
            accessed_time: nowSeconds(),
          });
          made.push(key);
        }
        return made;
      });
      for (const key of keys) bus.publish('tokens', key);
      return keys;
    },

    /** Full update: every form field; the status is left alone (enable/disable is setStatus). */
    async update(owner: Owner, input: UpdateTokenInput): Promise<TokenView> {
      const current = await getOwned(owner, input.id);
      checkGroup(owner, input.group);
      await updateUserToken(db, owner.id, input.id, columnsOf(input));
      bus.publish('tokens', current.key);
      return toTokenView(await getOwned(owner, input.id));
    },

    /** status_only: enabling is refused while the token is expired or exhausted. */
    async setStatus(owner: Owner, input: TokenStatusInput): Promise<TokenView> {
      const current = await getOwned(owner, input.id);
      if (input.status === TokenStatus.Enabled) {
        if (current.expired_time !== -1 && current.expired_time <= nowSeconds())
          throw badRequest('token.expired_cannot_enable');
        if (current.unlimited_quota !== 1 && current.remain_quota <= 0)
          throw badRequest('token.exhausted_cannot_enable');
      }
      await updateUserToken(db, owner.id, input.id, { status: input.status });
      bus.publish('tokens', current.key);
      return toTokenView(await getOwned(owner, input.id));
    },

    async remove(owner: Owner, id: number): Promise<void> {
      const keys = await softDeleteUserTokens(db, owner.id, [id], nowSeconds());
      if (keys.length === 0) throw notFound('token.not_found');
      for (const key of keys) bus.publish('tokens', key);
    },

    /** Deletes the caller's tokens among `ids`; others' ids are ignored. Answers the count deleted. */
    async removeMany(owner: Owner, ids: number[]): Promise<number> {
      const keys = await softDeleteUserTokens(db, owner.id, [...new Set(ids)], nowSeconds());
      for (const key of keys) bus.publish('tokens', key);
      return keys.length;
    },
  };
}
