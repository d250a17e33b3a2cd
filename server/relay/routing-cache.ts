import type { Infra } from '../context.ts';
import { listAbilities, listEnabledChannels } from '../domains/channels/channels.repo.ts';
import { type ChannelConfig, hasUsableKey, parseChannel } from './channel-config.ts';

/** One (group, model) candidate: the channel and its ability's priority and weight. */
export interface Candidate {
  channel: ChannelConfig;
  priority: number;
  weight: number;
}

interface RoutingIndex {
  byGroupModel: Map<string, Map<string, Candidate[]>>;
  /** Enabled channels by id (pinned `sk-KEY-CHANNELID` requests and health updates). */
  channels: Map<number, ChannelConfig>;
  /** `group\0model` of every ability, disabled channels' too. */
  listed: Set<string>;
}

export interface RoutingCache {
  /** Enabled candidates for (group, model); empty when none. Never reads the database. */
  candidates(group: string, model: string): Candidate[];
  channel(id: number): ChannelConfig | undefined;
  /** Whether some channel of the group lists the model, enabled or not (404 versus 503, model-choice.ts). */
  listed(group: string, model: string): boolean;
  /** Models any enabled channel serves in the group (GET /v1/models). */
  models(group: string): string[];
  /** Rebuilds from the database (also done on every bus 'channels' message). */
  reload(): Promise<void>;
  /** Stops routing to a channel at once (this instance just disabled it; the reload that follows takes a database round trip). */
  forget(channelId: number): void;
  close(): void;
}

/**
 * In-memory index of enabled abilities joined with enabled channels, loaded once
 * and rebuilt whenever a channel write publishes 'channels'. The relay's channel
 * choice is then a pair of Map lookups. A rebuild keeps serving the previous index
 * until the new one is complete; overlapping rebuilds keep only the newest.
 */
export function createRoutingCache(infra: Pick<Infra, 'db' | 'bus' | 'log'>): RoutingCache {
  let index: RoutingIndex = { byGroupModel: new Map(), channels: new Map(), listed: new Set() };
  let generation = 0;

  async function load(): Promise<RoutingIndex> {
    const rows = await listEnabledChannels(infra.db);
    const channels = new Map<number, ChannelConfig>();
    for (const row of rows) {
      const channel = parseChannel(row);
      // A multi-key channel whose keys an admin disabled one by one has nothing to send with.
      if (hasUsableKey(channel)) channels.set(channel.id, channel);
    }
    // One read of the abilities: every row says the model is listed (404 versus 503), enabled ones route.
    const byGroupModel = new Map<string, Map<string, Candidate[]>>();
    const listed = new Set<string>();
    for (const a of await listAbilities(infra.db)) {
      listed.add(`${a.group}\0${a.model}`);
      if (Number(a.enabled) !== 1) continue;
      const channel = channels.get(Number(a.channel_id));
      if (!channel) continue;
      let models = byGroupModel.get(a.group);
      if (!models) byGroupModel.set(a.group, (models = new Map()));
      let list = models.get(a.model);
      if (!list) models.set(a.model, (list = []));
      list.push({ channel, priority: Number(a.priority), weight: Math.max(0, Number(a.weight)) });
    }
    return { byGroupModel, channels, listed };
  }

  async function reload() {
    const mine = ++generation;
    const next = await load();
    if (mine === generation) index = next;
  }

  function forget(channelId: number) {
    if (!index.channels.has(channelId)) return;
    // A reload already under way read the channel before it was disabled: its result is dropped.
    generation++;
    const channels = new Map(index.channels);
    channels.delete(channelId);
    const byGroupModel = new Map<string, Map<string, Candidate[]>>();
    for (const [group, models] of index.byGroupModel) {
      const kept = new Map<string, Candidate[]>();
      for (const [model, list] of models) {
        const rest = list.filter((c) => c.channel.id !== channelId);
        if (rest.length > 0) kept.set(model, rest);
      }
      byGroupModel.set(group, kept);
    }
    index = { byGroupModel, channels, listed: index.listed };
  }

  const unsubscribe = infra.bus.subscribe('channels', () => {
    reload().catch((err) => infra.log.error({ err }, 'routing cache reload failed'));
  });

  return {
    candidates: (group, model) => index.byGroupModel.get(group)?.get(model) ?? [],
    channel: (id) => index.channels.get(id),
    listed: (group, model) => index.listed.has(`${group}\0${model}`),
    models: (group) => [...(index.byGroupModel.get(group)?.keys() ?? [])],
    reload,
    forget,
    close: unsubscribe,
  };
}
