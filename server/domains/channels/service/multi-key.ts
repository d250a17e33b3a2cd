import type { Kysely } from 'kysely';
import {
  type ChannelInfo,
  carryKeyStates,
  enabledKeyIndices,
  type MultiKeyMode,
  keyStatusOf,
  maskKey,
  readChannelInfo,
  splitChannelKeys,
  withKeyDisabled,
  withKeyEnabled,
} from '../../../../shared/channel-info.ts';
import { ChannelStatus } from '../../../../shared/constants.ts';
import type { KeyAction } from '../../../../shared/schemas/channels.ts';
import { type StoredMessage, storedMessageText } from '../../../../shared/stored-message.ts';
import type { ChannelRow, Database, Db } from '../../../db/types.ts';
import { nowSeconds } from '../../../db/time.ts';
import { AppError, badRequest } from '../../../errors.ts';
import {
  autoDisableChannel,
  disableAbilitiesOf,
  findChannelById,
  updateChannel,
  updateKeyStateIf,
} from '../channels.repo.ts';
import { noticeChannelDisabled } from '../disabled-notice.service.ts';
import { syncAbilities } from './abilities.ts';
import { type ChannelsCtx, channelsChanged, getChannelOrThrow } from './context.ts';

/*
 * Per-key state of multi-key channels (issue 28). A key is enabled, manually disabled (2) or
 * auto-disabled (3, with reason and time); it is never removed by the gateway: the relay and the
 * channel tests mark it, and only an admin's edit (the key list in the form, or the explicit
 * delete actions of the manage call) takes keys away. The channel itself is auto-disabled only
 * when every key is disabled, and comes back when a key is enabled again.
 */

type KeyRow = Pick<ChannelRow, 'id' | 'name' | 'key' | 'channel_info' | 'setting' | 'status'>;

export interface KeyState {
  keys: string[];
  info: ChannelInfo;
}

export const keyStateOf = (row: Pick<ChannelRow, 'key' | 'channel_info' | 'setting'>): KeyState => {
  const keys = splitChannelKeys(row.key);
  return { keys, info: readChannelInfo(row.channel_info, keys.length, row.setting) };
};

export const isMultiKey = (row: Pick<ChannelRow, 'key'>) => splitChannelKeys(row.key).length > 1;

/** What a channel write sends that bears on its keys (UpdateChannelInput's fields). */
export interface KeyWrite {
  key?: string;
  setting?: string | null;
  multi_key_mode?: MultiKeyMode | null;
  key_mode?: 'append' | 'replace' | null;
}

const settingMode = (setting: string | null | undefined): MultiKeyMode | undefined => {
  try {
    const v = (JSON.parse(setting ?? '') as { multi_key_mode?: unknown } | null)?.multi_key_mode;
    return v === 'polling' || v === 'random' ? v : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The key column and channel_info a channel write stores (issue 28). On create, every key
 * enabled. On update, when the key list changes (the admin's edit), a key still present keeps
 * its status, reason and time (matched by value), new keys are enabled and removed ones go with
 * their state; `key_mode: "append"` adds the sent keys to the stored ones (new-api). The selection
 * mode is the sent `multi_key_mode`, else one the sent settings JSON names, else the stored one.
 * Empty when the write changes neither keys nor mode.
 */
export function keyStateForWrite(
  current: Pick<ChannelRow, 'key' | 'channel_info' | 'setting'> | undefined,
  w: KeyWrite,
): { key?: string; channel_info?: string } {
  const old = current ? keyStateOf(current) : { keys: [], info: readChannelInfo('', 0) };
  const sent = w.key && w.key.trim() !== '' ? splitChannelKeys(w.key) : undefined;
  const mode = w.multi_key_mode ?? (w.setting ? settingMode(w.setting) : undefined);
  if (!sent && (!mode || mode === old.info.multi_key_mode)) return {};
  let keys = sent ?? old.keys;
  let key: string | undefined;
  if (sent && current && w.key_mode === 'append') {
    keys = [...old.keys, ...sent.filter((k, i) => !old.keys.includes(k) && sent.indexOf(k) === i)];
    key = keys.join('\n');
  }
  const info = sent ? carryKeyStates(old.keys, old.info, keys) : { ...old.info };
  info.multi_key_mode = mode ?? old.info.multi_key_mode;
  return { ...(key !== undefined ? { key } : {}), channel_info: JSON.stringify(info) };
}

/** What a key-state change decides: the new state (and key list), and the channel's status, if it changes. */
interface KeyChange {
  info: ChannelInfo;
  keys?: string[];
  channelStatus?: typeof ChannelStatus.Enabled | typeof ChannelStatus.AutoDisabled;
  /** other_info when the channel is auto-disabled. */
  otherInfo?: string;
}

export interface KeyChangeResult {
  changed: boolean;
  row?: KeyRow;
  state?: KeyState;
  /** The channel's status changed with it: 3 (every key disabled) or 1 (a key is back). */
  channelStatus?: number;
}

const ATTEMPTS = 8;

/**
 * Reads the channel, lets `decide` compute the change (null: nothing to do) and writes it only if
 * neither the keys nor their state changed meanwhile; otherwise reads again. The channel's status
 * and abilities follow in the same transaction.
 */
export async function changeKeyState(
  db: Kysely<Database>,
  channelId: number,
  decide: (state: KeyState, row: KeyRow) => KeyChange | null,
): Promise<KeyChangeResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const row = await findChannelById(db, channelId);
    if (!row) return { changed: false };
    const state = keyStateOf(row);
    const change = decide(state, row);
    if (!change) return { changed: false, row, state };
    const written = await db.transaction().execute(async (trx) => {
      const ok = await updateKeyStateIf(trx, channelId, row, {
        channel_info: JSON.stringify(change.info),
        ...(change.keys ? { key: change.keys.join('\n') } : {}),
      });
      if (!ok) return false;
      await applyChannelStatus(trx, row, change);
      return true;
    });
    if (written)
      return {
        changed: true,
        row,
        state: { keys: change.keys ?? state.keys, info: change.info },
        channelStatus: change.channelStatus,
      };
  }
  throw new AppError('CONFLICT', 'channel.keys_changed');
}

async function applyChannelStatus(trx: Db, row: KeyRow, change: KeyChange) {
  if (change.channelStatus === ChannelStatus.AutoDisabled) {
    if (await autoDisableChannel(trx, row.id, change.otherInfo ?? '')) await disableAbilitiesOf(trx, row.id);
  } else if (change.channelStatus === ChannelStatus.Enabled && row.status === ChannelStatus.AutoDisabled) {
    await updateChannel(trx, row.id, { status: ChannelStatus.Enabled });
    await syncAbilities(trx, [row.id]);
  }
}

/** other_info of a channel whose last key was just auto-disabled. */
const allKeysDisabledInfo = (reason: string, time: number) => {
  const message: StoredMessage = { code: 'channel.all_keys_disabled', params: { reason: reason.slice(0, 400) } };
  return JSON.stringify({ status_reason: storedMessageText(message), status_time: time, status_message: message });
};

/**
 * An upstream (or a test) said this key is dead: it is marked auto-disabled with the reason and
 * time; when no enabled key is left the channel is auto-disabled too. A key no longer in the
 * channel (an admin edited the list meanwhile) or already disabled is left alone.
 */
export async function autoDisableKey(
  db: Kysely<Database>,
  channelId: number,
  key: string,
  reason: string,
  time: number,
): Promise<{ marked: boolean; channelDisabled: boolean }> {
  const r = await changeKeyState(db, channelId, ({ keys, info }, row) => {
    const index = keys.indexOf(key);
    if (keys.length < 2 || index < 0 || keyStatusOf(info, index) !== 1) return null;
    const next = withKeyDisabled(info, index, ChannelStatus.AutoDisabled, reason, time);
    const none = enabledKeyIndices(next).length === 0 && row.status === ChannelStatus.Enabled;
    return none
      ? { info: next, channelStatus: ChannelStatus.AutoDisabled, otherInfo: allKeysDisabledInfo(reason, time) }
      : { info: next };
  });
  return { marked: r.changed, channelDisabled: r.channelStatus === ChannelStatus.AutoDisabled };
}

/** A test passed on an auto-disabled key: it is enabled again (manually disabled keys stay as they are). */
export async function reEnableKey(db: Kysely<Database>, channelId: number, key: string): Promise<boolean> {
  const r = await changeKeyState(db, channelId, ({ keys, info }) => {
    const index = keys.indexOf(key);
    if (index < 0 || keyStatusOf(info, index) !== ChannelStatus.AutoDisabled) return null;
    return { info: withKeyEnabled(info, index), channelStatus: ChannelStatus.Enabled };
  });
  return r.changed;
}

/**
 * An admin enabled a multi-key channel with no enabled key (every key auto-disabled): its
 * auto-disabled keys are enabled with it, or it would stay out of routing; manual ones stay.
 */
export async function revivedWithChannel(db: Kysely<Database>, channelId: number): Promise<boolean> {
  const r = await changeKeyState(db, channelId, ({ keys, info }) => {
    if (keys.length < 2 || enabledKeyIndices(info).length > 0) return null;
    let next = info;
    for (let i = 0; i < keys.length; i++)
      if (keyStatusOf(info, i) === ChannelStatus.AutoDisabled) next = withKeyEnabled(next, i);
    return next === info ? null : { info: next };
  });
  return r.changed;
}

/**
 * A channel test over a multi-key channel's keys (the admin's test and the periodic test-all,
 * which is also the automatic re-enable probe): one enabled key is tested for the channel, and
 * with AutomaticEnableChannelEnabled every auto-disabled key is tried again and enabled when it
 * answers (manually disabled keys are left alone). In a test-all run a failing key is marked
 * auto-disabled like a dead key on the relay; the channel follows only when no key is left.
 * Answers the channel's result: the enabled key's, else a recovered key's, else the last failure.
 * A single-key channel is just `run()`.
 */
export async function probeKeys<R extends { ok: boolean; message: string }>(
  ctx: ChannelsCtx,
  channel: ChannelRow,
  run: (key?: string) => Promise<R>,
  disableOnFailure: boolean,
): Promise<R> {
  const { keys, info } = keyStateOf(channel);
  if (keys.length < 2) return run();
  const enabled = enabledKeyIndices(info);
  let result: R | undefined;
  let changed = false;
  if (enabled.length > 0) {
    const key = keys[enabled[Math.floor(Math.random() * enabled.length)]];
    result = await run(key);
    if (
      !result.ok &&
      disableOnFailure &&
      channel.status === ChannelStatus.Enabled &&
      channel.auto_ban === 1 &&
      ctx.options.get('AutomaticDisableChannelEnabled')
    ) {
      const now = nowSeconds();
      const r = await autoDisableKey(ctx.db, channel.id, key, result.message, now);
      changed ||= r.marked;
      if (r.channelDisabled) void noticeChannelDisabled(ctx, channel, result.message, now);
    }
  }
  let recovered: R | undefined;
  let stillDead: R | undefined;
  if (ctx.options.get('AutomaticEnableChannelEnabled'))
    for (let i = 0; i < keys.length; i++) {
      if (keyStatusOf(info, i) !== ChannelStatus.AutoDisabled) continue;
      const r = await run(keys[i]);
      if (r.ok && (await reEnableKey(ctx.db, channel.id, keys[i]))) {
        changed = true;
        recovered ??= r;
      } else stillDead = r;
    }
  if (changed) channelsChanged(ctx);
  // Every key manually disabled: the test still says whether the upstream answers.
  return result ?? recovered ?? stillDead ?? run(keys[0]);
}

/** One key as the console and new-api's manage call show it: masked, never whole. */
export interface KeyStatusView {
  index: number;
  status: number;
  disabled_time?: number;
  reason?: string;
  key_preview: string;
}

export interface KeyStatusPage {
  keys: KeyStatusView[];
  total: number;
  page: number;
  page_size: number;
  total_pages: number;
  enabled_count: number;
  manual_disabled_count: number;
  auto_disabled_count: number;
  /** The channel's key selection mode and status, for the console's key panel. */
  multi_key_mode: ChannelInfo['multi_key_mode'];
  channel_status: number;
}

export interface KeyStatusQuery {
  page?: number;
  pageSize?: number;
  /** 1, 2 or 3; all when absent. */
  status?: number;
}

/** The admin's per-key actions (tRPC channels.keys / manageKeys, REST POST /api/channel/multi_key/manage). */
export function createMultiKeyManagement(ctx: ChannelsCtx) {
  async function multiKeyRow(id: number) {
    const row = await getChannelOrThrow(ctx, id);
    const state = keyStateOf(row);
    if (state.keys.length < 2) throw badRequest('channel.not_multi_key');
    return { row, state };
  }

  const checkIndex = (state: KeyState, index: number | undefined): number => {
    if (index === undefined) throw badRequest('channel.key_index_missing');
    if (!Number.isInteger(index) || index < 0 || index >= state.keys.length)
      throw badRequest('channel.key_index_out_of_range');
    return index;
  };

  /** Runs a change on a multi-key channel and tells the relay; answers how many keys it touched. */
  async function change(id: number, decide: (s: KeyState) => (KeyChange & { count: number }) | null) {
    await multiKeyRow(id);
    let count = 0;
    const r = await changeKeyState(ctx.db, id, (s) => {
      if (s.keys.length < 2) throw badRequest('channel.not_multi_key');
      const c = decide(s);
      count = c?.count ?? 0;
      return c;
    });
    if (r.changed) channelsChanged(ctx);
    return count;
  }

  const enableWhere = (s: KeyState, pick: (i: number) => boolean) => {
    let info = s.info;
    let count = 0;
    for (let i = 0; i < s.keys.length; i++)
      if (keyStatusOf(info, i) !== 1 && pick(i)) {
        info = withKeyEnabled(info, i);
        count++;
      }
    return count === 0 ? null : { info, count, channelStatus: ChannelStatus.Enabled };
  };

  /** Keeps the keys `keep` says, with their state, re-indexed (explicit admin deletions only). */
  const keepKeys = (s: KeyState, keep: (i: number) => boolean) => {
    const kept = s.keys.map((k, i) => ({ k, i })).filter(({ i }) => keep(i));
    const info: ChannelInfo = {
      ...s.info,
      is_multi_key: kept.length > 1,
      multi_key_size: kept.length,
      multi_key_status_list: {},
      multi_key_disabled_reason: {},
      multi_key_disabled_time: {},
      multi_key_polling_index: 0,
    };
    kept.forEach(({ i }, n) => {
      const status = s.info.multi_key_status_list[i];
      if (status === undefined) return;
      info.multi_key_status_list[n] = status;
      if (s.info.multi_key_disabled_reason[i] !== undefined)
        info.multi_key_disabled_reason[n] = s.info.multi_key_disabled_reason[i];
      if (s.info.multi_key_disabled_time[i] !== undefined)
        info.multi_key_disabled_time[n] = s.info.multi_key_disabled_time[i];
    });
    return { info, keys: kept.map(({ k }) => k), count: s.keys.length - kept.length };
  };

  const actions = {
    /** get_key_status: every key masked, with its status, reason and time; paged and filtered as new-api does. */
    async keyStatus(id: number, q: KeyStatusQuery = {}): Promise<KeyStatusPage> {
      const { row, state } = await multiKeyRow(id);
      const all: KeyStatusView[] = state.keys.map((key, index) => {
        const status = keyStatusOf(state.info, index);
        const reason = state.info.multi_key_disabled_reason[index];
        const time = state.info.multi_key_disabled_time[index];
        return {
          index,
          status,
          ...(status !== 1 && time ? { disabled_time: time } : {}),
          ...(status !== 1 && reason ? { reason } : {}),
          key_preview: maskKey(key),
        };
      });
      const count = (s: number) => all.filter((k) => k.status === s).length;
      const filtered = q.status ? all.filter((k) => k.status === q.status) : all;
      const pageSize = q.pageSize && q.pageSize > 0 ? q.pageSize : 50;
      const totalPages = Math.max(1, Math.ceil(filtered.length / pageSize));
      const page = Math.min(Math.max(1, q.page ?? 1), totalPages);
      return {
        keys: filtered.slice((page - 1) * pageSize, page * pageSize),
        total: filtered.length,
        page,
        page_size: pageSize,
        total_pages: totalPages,
        enabled_count: count(1),
        manual_disabled_count: count(2),
        auto_disabled_count: count(3),
        multi_key_mode: state.info.multi_key_mode,
        channel_status: row.status,
      };
    },

    /** disable_key: an admin takes one key out of service (status 2); the channel keeps its status. */
    disableKey: (id: number, index: number | undefined) =>
      change(id, (s) => {
        const i = checkIndex(s, index);
        if (keyStatusOf(s.info, i) === ChannelStatus.ManuallyDisabled) return null;
        return { info: withKeyDisabled(s.info, i, ChannelStatus.ManuallyDisabled, '', nowSeconds()), count: 1 };
      }),

    /** enable_key: back in service; an auto-disabled channel comes back with it. */
    enableKey: (id: number, index: number | undefined) =>
      change(id, (s) => {
        const i = checkIndex(s, index);
        return enableWhere(s, (k) => k === i);
      }),

    enableAllKeys: (id: number) => change(id, (s) => enableWhere(s, () => true)),

    disableAllKeys: async (id: number) => {
      const n = await change(id, (s) => {
        let info = s.info;
        let count = 0;
        for (const i of enabledKeyIndices(s.info)) {
          info = withKeyDisabled(info, i, ChannelStatus.ManuallyDisabled, '', nowSeconds());
          count++;
        }
        return count === 0 ? null : { info, count };
      });
      if (n === 0) throw badRequest('channel.no_key_to_disable');
      return n;
    },

    /** delete_key: the admin's explicit removal of one key (the console asks first). */
    deleteKey: (id: number, index: number | undefined) =>
      change(id, (s) => {
        const i = checkIndex(s, index);
        if (s.keys.length <= 1) throw badRequest('channel.last_key');
        return keepKeys(s, (k) => k !== i);
      }),

    /** delete_disabled_keys: the admin's explicit removal of the auto-disabled keys (manual ones stay). */
    deleteAutoDisabledKeys: async (id: number) => {
      const n = await change(id, (s) => {
        const c = keepKeys(s, (i) => keyStatusOf(s.info, i) !== ChannelStatus.AutoDisabled);
        if (c.count === 0) return null;
        if (c.keys.length === 0) throw badRequest('channel.last_key');
        return c;
      });
      if (n === 0) throw badRequest('channel.no_auto_disabled_key');
      return n;
    },
  };

  return {
    keyStatus: actions.keyStatus,
    /** One of new-api's write actions on a multi-key channel; answers how many keys it changed. */
    manageKeys(id: number, action: KeyAction, index?: number): Promise<number> {
      switch (action) {
        case 'disable_key':
          return actions.disableKey(id, index);
        case 'enable_key':
          return actions.enableKey(id, index);
        case 'enable_all_keys':
          return actions.enableAllKeys(id);
        case 'disable_all_keys':
          return actions.disableAllKeys(id);
        case 'delete_key':
          return actions.deleteKey(id, index);
        case 'delete_disabled_keys':
          return actions.deleteAutoDisabledKeys(id);
      }
    },
  };
}
