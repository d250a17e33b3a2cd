import {
  type ChannelInfo,
  enabledKeyIndices,
  keyStatusOf,
  maskKey,
  withKeyDisabled,
  withKeyEnabled,
} from '../../../../shared/channel-info.ts';
import { ChannelStatus } from '../../../../shared/constants.ts';
import { scrubSecrets } from '../../../../shared/scrub-secrets.ts';
import type { KeyAction } from '../../../../shared/schemas/channels.ts';
import { nowSeconds } from '../../../db/time.ts';
import { badRequest } from '../../../errors.ts';
import { type ChannelsCtx, channelsChanged, getChannelOrThrow } from './context.ts';
import { type KeyChange, type KeyState, changeKeyState, keyStateOf } from './multi-key.ts';

/*
 * The admin's view of a multi-key channel's keys and the per-key actions (issue 28): tRPC
 * channels.keys / manageKeys and new-api's REST POST /api/channel/multi_key/manage. Keys are shown
 * masked; the state rules themselves live in multi-key.ts.
 */

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
        // Reasons stored before they were masked at the source are masked here (issue 39).
        const stored = state.info.multi_key_disabled_reason[index];
        const reason = stored && scrubSecrets(stored, [row.key, ...state.keys]);
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
