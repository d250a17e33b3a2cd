/*
 * The gateway the real clients talk to: a real one on loopback (startRelayHarness, as the conformance suite
 * uses), the five scripted agent upstreams, and one channel each. Every channel lives in a group of its own,
 * so every client can ask for its usual model name and a cell's user (in that group) reaches one upstream.
 */
import { startAgentUpstream, type AgentUpstream } from '../../scripts/fake-upstream/agent/server.ts';
import { LogType } from '../../shared/constants.ts';
import {
  insertChannel,
  insertToken,
  insertUser,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../relay-fixtures.ts';
import { CLIENT_MODEL } from './clients.ts';
import { AGENT_UPSTREAMS, type AgentUpstreamId } from './matrix.ts';

/**
 * The model names the clients ask for: their main model (CLIENT_MODEL) and the ones they use on their own
 * for side work (titles, routing, summaries), seen in their recorded requests.
 */
export const GATEWAY_MODELS = [
  ...new Set([
    ...Object.values(CLIENT_MODEL),
    'claude-haiku-4-5',
    'claude-haiku-4-5-20251001',
    'gemini-3.1-pro-preview',
    'gemini-3-flash-preview',
    'gemini-2.5-flash',
    'gemini-2.5-flash-lite',
  ]),
];

export const groupOf = (u: AgentUpstreamId) => `agents-${u}`;

export interface AgentGateway {
  h: RelayHarness;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  fakes: Record<AgentUpstreamId, AgentUpstream>;
}

export async function startAgentGateway(): Promise<AgentGateway> {
  const h = await startRelayHarness();
  const fakes = Object.fromEntries(
    await Promise.all(AGENT_UPSTREAMS.map(async (u) => [u.id, await startAgentUpstream(u.id)] as const)),
  ) as Record<AgentUpstreamId, AgentUpstream>;
  await setOptions(h.deps, {
    ModelRatio: JSON.stringify(Object.fromEntries(GATEWAY_MODELS.map((m) => [m, 1]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(GATEWAY_MODELS.map((m) => [m, 2]))),
    GroupRatio: JSON.stringify({ default: 1, ...Object.fromEntries(AGENT_UPSTREAMS.map((u) => [groupOf(u.id), 1])) }),
  });
  for (const u of AGENT_UPSTREAMS)
    await insertChannel(h.deps, {
      name: `agents-${u.id}`,
      type: u.channelType,
      baseUrl: fakes[u.id].url,
      models: GATEWAY_MODELS,
      groups: [groupOf(u.id)],
      modelMapping: Object.fromEntries(GATEWAY_MODELS.map((m) => [m, u.model])),
      setting: 'setting' in u ? u.setting : undefined,
      // A refused request must not disable the channel for the cells after it.
      autoBan: false,
    });
  return { h, origin: h.baseURL.replace(/\/v1$/, ''), fakes };
}

export async function stopAgentGateway(g: AgentGateway | undefined) {
  if (!g) return;
  await g.h.close();
  await Promise.all(Object.values(g.fakes).map((f) => f.close()));
}

/** A fresh user of the upstream's group with a key (what a person would create in the console). */
export async function cellUser(g: AgentGateway, u: AgentUpstreamId) {
  const user = await insertUser(g.h.deps, { quota: 500_000_000, group: groupOf(u) });
  const token = await insertToken(g.h.deps, user.id, { unlimited: true });
  return { userId: user.id, key: token.key };
}

/** The gateway's error rows for a user (what the operator sees in the log), newest last. */
export async function gatewayErrors(g: AgentGateway, userId: number): Promise<string[]> {
  await g.h.drain();
  const rows = await g.h.deps.db
    .selectFrom('logs')
    .select(['content', 'model_name'])
    .where('user_id', '=', userId)
    .where('type', '=', LogType.Error)
    .orderBy('id')
    .execute();
  return rows.map((r) => `${r.model_name}: ${r.content}`);
}
