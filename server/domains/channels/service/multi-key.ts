import type { Kysely } from 'kysely';
import {
  type ChannelInfo,
  carryKeyStates,
  enabledKeyIndices,
  type MultiKeyMode,
  keyStatusOf,
  readChannelInfo,
  splitChannelKeys,
  withKeyDisabled,
  withKeyEnabled,
} from '../../../../shared/channel-info.ts';
import { ChannelStatus } from '../../../../shared/constants.ts';
import { scrubSecrets } from '../../../../shared/scrub-secrets.ts';
import { type StoredMessage, storedMessageText } from '../../../../shared/stored-message.ts';
import type { Database, Db } from '../../../db/types.ts';
import type { ChannelRow } from '../channels.table.ts';
import { nowSeconds } from '../../../db/time.ts';
import { AppError } from '../../../errors.ts';
import {
  autoDisableChannel,
  disableAbilitiesOf,
  findChannelById,
  updateChannel,
  updateKeyStateIf,
} from '../channels.repo.ts';
import { noticeChannelDisabled } from '../disabled-notice.service.ts';
import { syncAbilities } from './abilities.ts';
import { type ChannelsCtx, channelsChanged } from './context.ts';

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
export interface KeyChange {
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
    // The upstream's words, without the key they may quote (issue 39), whoever calls.
    const said = scrubSecrets(reason, [row.key, ...keys]);
    const next = withKeyDisabled(info, index, ChannelStatus.AutoDisabled, said, time);
    const none = enabledKeyIndices(next).length === 0 && row.status === ChannelStatus.Enabled;
    return none
      ? { info: next, channelStatus: ChannelStatus.AutoDisabled, otherInfo: allKeysDisabledInfo(said, time) }
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
