/*
 * The real-client matrix of issue #29: every agent client (clients.ts) x every upstream dialect, each cell
 * one run of the task in scripts/fake-upstream/agent/task.ts through the real gateway. Pure data and the
 * results file (test-artifacts/agents/matrix.json, gitignored), read by scripts/gen-conformance-docs.ts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AgentDialect } from '../../scripts/fake-upstream/agent/server.ts';
import { CLIENTS, type ClientId } from './clients.ts';

export { CLIENTS, type ClientId };

/**
 * The upstreams: the channel type the gateway is given for each, its settings, and the upstream model
 * every client's model name maps to (reasoning models, so thinking comes back in each dialect's form).
 */
export const AGENT_UPSTREAMS = [
  { id: 'openai', label: 'OpenAI', channelType: 1, model: 'gpt-5-mini' },
  { id: 'openai-chat-only', label: 'chat-only OpenAI-compatible', channelType: 43, model: 'deepseek-reasoner' },
  {
    id: 'responses-only',
    label: 'Responses-only',
    channelType: 1,
    model: 'gpt-5-codex',
    setting: { responses_only: true },
  },
  { id: 'anthropic', label: 'Anthropic', channelType: 14, model: 'claude-sonnet-4-5' },
  { id: 'gemini', label: 'Gemini', channelType: 24, model: 'gemini-3-pro-preview' },
] as const satisfies readonly {
  id: AgentDialect;
  label: string;
  channelType: number;
  model: string;
  setting?: object;
}[];

export type AgentUpstreamId = (typeof AGENT_UPSTREAMS)[number]['id'];

/** One invocation of the client in a cell (step 1 reads the files; later steps continue the session). */
export interface StepResult {
  step: number;
  exitCode: number | null;
  ms: number;
  ok: boolean;
  /** What went wrong, in the user's terms (exit code, the answer or error the client printed). */
  problem?: string;
}

export interface AgentCellResult {
  client: ClientId;
  upstream: AgentUpstreamId;
  outcome: 'pass' | 'fail';
  ms: number;
  steps: StepResult[];
  /** For `fail`: the first failed step's problem, the client's last lines and the gateway's error rows. */
  error?: string;
  /** Tool results and images the fake saw come back on its last answered turn of step 1. */
  seen?: { results: number; images: number };
}

export interface AgentMatrixResults {
  finishedAt: string;
  versions: Record<ClientId, string>;
  cells: AgentCellResult[];
}

export const AGENT_RESULTS_FILE = new URL('../../test-artifacts/agents/matrix.json', import.meta.url);

export function writeAgentResults(r: AgentMatrixResults) {
  mkdirSync(new URL('.', AGENT_RESULTS_FILE), { recursive: true });
  writeFileSync(AGENT_RESULTS_FILE, `${JSON.stringify(r, null, 2)}\n`);
}

export function readAgentResults(): AgentMatrixResults | undefined {
  return existsSync(AGENT_RESULTS_FILE)
    ? (JSON.parse(readFileSync(AGENT_RESULTS_FILE, 'utf8')) as AgentMatrixResults)
    : undefined;
}
