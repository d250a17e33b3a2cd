import { ChannelType } from '../../../../shared/channel-types.ts';
import { ChannelStatus, DEFAULT_GROUP } from '../../../../shared/constants.ts';
import {
  type ChannelFields,
  type ChannelKeyMode,
  checkChannelRules,
  type CreateChannelInput,
  defaultOtherFor,
  type UpdateChannelInput,
} from '../../../../shared/schemas/channels.ts';
import { splitList } from '../../../../shared/schemas/common.ts';
import { nowSeconds } from '../../../db/time.ts';
import type { Db } from '../../../db/types.ts';
import type { ChannelRow } from '../channels.table.ts';
import { appErrorOfText } from '../../../errors.ts';
import {
  type ChannelPatch,
  deleteAbilitiesOf,
  deleteChannels,
  insertChannel,
  listDisabledChannelIds,
  type NewChannel,
  updateChannel,
} from '../channels.repo.ts';
import { syncAbilities } from './abilities.ts';
import { keyStateForWrite, revivedWithChannel } from './multi-key.ts';
import { type ChannelsCtx, type ChannelView, channelsChanged, getChannelOrThrow, toChannelView } from './context.ts';

/** Splits `key` per mode; Vertex AI keys are service-account JSON and never split. */
function keysFor(key: string, type: number, mode: ChannelKeyMode): string[] {
  const lines = splitList(key, /\n/);
  if (type === ChannelType.VertexAI || mode === 'single') return [key.trim()];
  if (mode === 'multi_to_single') return [lines.join('\n')];
  return lines.length > 0 ? lines : [''];
}

/** The groups array of newer consoles wins over the comma string. */
const groupOf = (f: ChannelFields) => (f.groups && f.groups.length > 0 ? splitList(f.groups).join(',') : f.group);

/** Only what the request carries: undefined and null leave a column as it is (Go pointer semantics). */
function patchFrom(f: ChannelFields): ChannelPatch {
  const p: ChannelPatch = {};
  const set = <K extends keyof ChannelPatch>(k: K, v: ChannelPatch[K] | null | undefined) => {
    if (v !== undefined && v !== null) p[k] = v;
  };
  set('type', f.type);
  set('name', f.name);
  if (f.key && f.key.trim() !== '') p.key = f.key.trim();
  set('openai_organization', f.openai_organization);
  set('test_model', f.test_model);
  set('base_url', f.base_url);
  set('other', f.other);
  set('model_mapping', f.model_mapping);
  set('status_code_mapping', f.status_code_mapping);
  set('setting', f.setting);
  set('param_override', f.param_override);
  set('models', f.models);
  const group = groupOf(f);
  if (group) p.group = group;
  set('auto_ban', f.auto_ban);
  set('priority', f.priority);
  set('weight', f.weight);
  set('tag', f.tag === '' ? null : f.tag);
  set('system_prompt', f.system_prompt);
  set('model_prefix', f.model_prefix);
  set('max_input_tokens', f.max_input_tokens);
  set('status', f.status);
  return p;
}

function ruleCheck(c: { type: number; name: string; key: string; models: string; other: string }, creating: boolean) {
  const problem = checkChannelRules(c, creating);
  if (problem) throw appErrorOfText('BAD_REQUEST', problem);
}

export function createChannelWrites(ctx: ChannelsCtx) {
  /** Runs a write and its ability rebuild in one transaction, then tells the relay. */
  async function write<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
    const result = await ctx.db.transaction().execute((trx) => fn(trx));
    channelsChanged(ctx);
    return result;
  }

  async function setStatus(ids: number[], status: number, reason?: string): Promise<void> {
    if (ids.length === 0) return;
    const otherInfo = reason ? JSON.stringify({ status_reason: reason, status_time: nowSeconds() }) : undefined;
    await write(async (trx) => {
      for (const id of ids) await updateChannel(trx, id, { status, ...(otherInfo ? { other_info: otherInfo } : {}) });
      await syncAbilities(trx, ids);
    });
    // A multi-key channel the admin enables gets its auto-disabled keys back when none is left enabled.
    if (status === ChannelStatus.Enabled) {
      let revived = false;
      for (const id of ids) revived = (await revivedWithChannel(ctx.db, id)) || revived;
      if (revived) channelsChanged(ctx);
    }
  }

  return {
    /** POST /api/channel/: one channel, or one per key line in batch mode. Answers the new ids. */
    async create(input: CreateChannelInput): Promise<number[]> {
      const type = input.type ?? ChannelType.OpenAI;
      const base: NewChannel = {
        type,
        name: input.name ?? '',
        key: input.key ?? '',
        models: input.models ?? '',
        group: groupOf(input) || DEFAULT_GROUP,
        other: '',
        status: ChannelStatus.Enabled,
        auto_ban: 1,
        priority: 0,
        weight: 0,
        created_time: nowSeconds(),
      };
      const patch = patchFrom({ ...input, type, key: undefined });
      const row: NewChannel = { ...base, ...patch, other: defaultOtherFor(type, patch.other ?? base.other) };
      ruleCheck(
        { type, name: row.name ?? '', key: input.key ?? '', models: row.models ?? '', other: row.other ?? '' },
        true,
      );
      const keys = keysFor(input.key ?? '', type, input.mode ?? 'batch');
      return write(async (trx) => {
        const ids: number[] = [];
        for (const key of keys)
          ids.push(await insertChannel(trx, { ...row, key, ...keyStateForWrite(undefined, { ...input, key }) }));
        await syncAbilities(trx, ids);
        return ids;
      });
    },

    /** PUT /api/channel/: applies what was sent; an empty key keeps the stored one. */
    async update(input: UpdateChannelInput): Promise<ChannelView> {
      const current = await getChannelOrThrow(ctx, input.id);
      // The key list and its per-key state (an admin's edit keeps the state of the keys it keeps).
      const patch = { ...patchFrom(input), ...keyStateForWrite(current, input) };
      const merged: ChannelRow = { ...current, ...patch } as ChannelRow;
      merged.other = defaultOtherFor(merged.type, merged.other);
      if (merged.other !== current.other) patch.other = merged.other;
      ruleCheck(merged, false);
      await write(async (trx) => {
        if (Object.keys(patch).length > 0) await updateChannel(trx, input.id, patch);
        await syncAbilities(trx, [input.id]);
      });
      return toChannelView(await getChannelOrThrow(ctx, input.id));
    },

    setStatus,

    /** A copy of a channel under a new name, with the key but without usage, balance or test results. */
    async copy(id: number, suffix: string, resetBalance: boolean): Promise<number> {
      const { id: _id, ...source } = await getChannelOrThrow(ctx, id);
      const row: NewChannel = {
        ...source,
        name: `${source.name}${suffix}`,
        created_time: nowSeconds(),
        used_quota: 0,
        test_time: 0,
        response_time: 0,
        ...(resetBalance ? { balance: 0, balance_updated_time: 0 } : {}),
      };
      return write(async (trx) => {
        const newId = await insertChannel(trx, row);
        await syncAbilities(trx, [newId]);
        return newId;
      });
    },

    async remove(id: number): Promise<void> {
      await getChannelOrThrow(ctx, id);
      await write(async (trx) => {
        await deleteAbilitiesOf(trx, [id]);
        await deleteChannels(trx, [id]);
      });
    },

    /** POST /api/channel/batch: answers the number of ids, as new-api does. */
    async removeMany(ids: number[]): Promise<number> {
      const unique = [...new Set(ids)];
      await write(async (trx) => {
        await deleteAbilitiesOf(trx, unique);
        await deleteChannels(trx, unique);
      });
      return ids.length;
    },

    /** DELETE /api/channel/disabled: manually and automatically disabled channels. */
    async removeDisabled(): Promise<number> {
      return write(async (trx) => {
        const ids = await listDisabledChannelIds(trx);
        await deleteAbilitiesOf(trx, ids);
        return ids.length === 0 ? 0 : deleteChannels(trx, ids);
      });
    },
  };
}
