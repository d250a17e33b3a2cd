/*
 * docs/conformance.md's "Real agent clients" sections and their CI printout, rendered from the agents
 * project's last run (test-artifacts/agents/matrix.json). Pure: the same results give the same text. The
 * versions in the table are the pins (test/agents/clients/package.json), so the page's shape does not
 * depend on what is installed; the run's own versions are printed beside its outcomes.
 */
import { readFileSync } from 'node:fs';
import { CLIENTS_DIR } from '../../scripts/install-agent-clients.mjs';
import { AGENT_UPSTREAMS, type AgentCellResult, type AgentMatrixResults, CLIENTS, type ClientId } from './matrix.ts';

/** The heading of the outcome-dependent part (docSkeleton leaves it out). */
export const AGENT_FAILING_HEADING = '## Real agent clients: last run';

const pins = (): Record<string, string> =>
  (JSON.parse(readFileSync(`${CLIENTS_DIR}/package.json`, 'utf8')) as { dependencies: Record<string, string> })
    .dependencies;

const cellOf = (r: AgentMatrixResults | undefined, client: ClientId, upstream: string) =>
  r?.cells.find((c) => c.client === client && c.upstream === upstream);

const mark = (c: AgentCellResult | undefined) => (!c ? '·' : c.outcome === 'pass' ? '✓' : '✗');

const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

/** Per-run noise (request ids, temp folders, random code words) out of an error line. */
const steady = (s: string) =>
  s
    .replace(/\s*\(request id: [^)]*\)/g, '')
    .replace(/request id: \w+/g, 'request id: …')
    .replace(/\/tmp\/agents-[\w-]+/g, '<tmp>')
    .replace(/(ALPHA|BRAVO)-[0-9a-f]{6}/g, '$1-…')
    .replace(/\|/g, '\\|');

/** Behaviour of the pinned clients seen in their recorded requests (true whatever the gateway does). */
const CLIENT_FACTS = [
  'Claude Code 2.1 sends `HEAD /` before its first request, `?beta=true` on `/v1/messages`, thinking `enabled` with a 31999-token budget, `context_management`, and its session in `metadata.user_id` (JSON) and `x-claude-code-session-id`.',
  'Codex 0.171 first tries the Responses API over a WebSocket (`GET /v1/responses` with `Upgrade: websocket`): on a 404 it retries five times (about 7 s per invocation) before falling back to HTTP; the gateway answers 426, which makes it fall back at once. It declares a `namespace` tool (`multi_agent_v1`) and `web_search`, tags every input item with `internal_chat_message_metadata_passthrough` and the body with `client_metadata`, and reads its key from `CODEX_API_KEY`.',
  'Gemini CLI 0.61 sends `gemini-3.1-pro-preview` when asked for `gemini-3-pro-preview`, calls `countTokens`, joins its session context and the prompt as two text parts, and on `--resume` re-sends every earlier `functionResponse` part twice: the Gemini API refuses that turn ("the number of function response parts is equal to the number of function call parts"), and so does every upstream that checks tool results against calls, so the Gemini door keeps one answer per call id (docs/conversion.md § The Gemini front door).',
  'Qwen Code 0.15 exits 0 when the API fails (the error is its answer), runs a side request with 7 tools after each turn (memory extraction), and puts a picture read by `read_file` into the tool message (`image_url`), which OpenAI and DeepSeek refuse unless the gateway moves it to a user message.',
  'OpenCode 1.18 asks for a title first (no tools), quotes the prompt given on its command line, and installs `@opencode-ai/plugin` into its config folder from the registry at start unless it is there already.',
];

/** The static part: the matrix (outcomes as marks), how each client is run, what a cell checks. */
export function agentSection(r: AgentMatrixResults | undefined): string[] {
  const pinned = pins();
  return [
    '## Real agent clients',
    '',
    'The real command-line agents, installed pinned from npm (`test/agents/clients/`, by',
    '`scripts/install-agent-clients.mjs` from the `agents` Vitest project), run headless through the gateway',
    'with their default configuration against a scripted upstream of every dialect',
    '(`scripts/fake-upstream/agent/`: the strict validators first, then an agent that plays the task against',
    "whatever tools the client declared, with thinking in the dialect's own form). Each cell is one test,",
    '`client > upstream` in `test/agents/agent-clients.test.ts`: three invocations of the client, (1) read',
    "`notes.txt`, the file it names and a picture through the client's file tool and answer with a code word",
    "made of both texts and the picture's size, then (2, 3) continue the same session, where the fake answers",
    'only when the earlier turns are in the prefix. A cell passes when every invocation exits 0 with the right',
    'answer and the fake saw every tool result (the picture included) come back.',
    '',
    '✓ passes · ✗ fails (see the last run below) · `·` not run',
    '',
    `| client | door | ${AGENT_UPSTREAMS.map((u) => u.label).join(' | ')} |`,
    `|---|---|${AGENT_UPSTREAMS.map(() => '---').join('|')}|`,
    ...CLIENTS.map(
      (c) =>
        `| ${c.label} ${pinned[c.pkg]} | ${c.door} | ${AGENT_UPSTREAMS.map((u) => mark(cellOf(r, c.id, u.id))).join(' | ')} |`,
    ),
    '',
    'Upstream models: ' +
      AGENT_UPSTREAMS.map(
        (u) => `${u.label} \`${u.model}\` (channel type ${u.channelType}${'setting' in u ? ', `responses_only`' : ''})`,
      ).join(', ') +
      ". Every channel sits in a group of its own and maps every client's model name to its model.",
    '',
    '### How each client is run',
    '',
    'Only what a user must set to use a gateway (base URL, key, model name), in a HOME of its own; telemetry,',
    'update checks and every network call other than the gateway off (the test machine has no internet).',
    '',
    '| client | set-up |',
    '|---|---|',
    ...CLIENTS.map((c) => `| ${c.label} | ${c.setup.replace(/\|/g, '\\|')} |`),
    '',
    '### What the clients send that a gateway meets',
    '',
    ...CLIENT_FACTS.map((f) => `- ${f}`),
    '',
  ];
}

/** The outcome-dependent part: when, which versions, how long, and every failing cell with what the user saw. */
export function agentLastRun(r: AgentMatrixResults | undefined): string[] {
  if (!r) return [AGENT_FAILING_HEADING, '', 'No run recorded yet.', ''];
  const order = (c: AgentCellResult) =>
    CLIENTS.findIndex((x) => x.id === c.client) * 10 + AGENT_UPSTREAMS.findIndex((u) => u.id === c.upstream);
  const failing = r.cells.filter((c) => c.outcome === 'fail').sort((a, b) => order(a) - order(b));
  const total = r.cells.reduce((n, c) => n + c.ms, 0);
  return [
    AGENT_FAILING_HEADING,
    '',
    `Finished ${r.finishedAt}: ${r.cells.length - failing.length} of ${r.cells.length} cells pass; ` +
      `client time ${seconds(total)} over all cells (two run at a time). Versions: ` +
      CLIENTS.map((c) => `${c.label} ${r.versions[c.id]}`).join(', ') +
      '.',
    '',
    ...(failing.length
      ? failing.map(
          (c) => `- ${CLIENTS.find((x) => x.id === c.client)!.label} › ${c.upstream}: ${steady(c.error ?? '')}`,
        )
      : ['No failing cell.']),
    '',
  ];
}

/** The CI printout after the run. */
export function renderAgentText(r: AgentMatrixResults | undefined): string {
  const out = ['', 'Real agent clients (client x upstream)'];
  if (!r) return [...out, 'no run recorded'].join('\n');
  const pass = r.cells.filter((c) => c.outcome === 'pass').length;
  out.push(
    `${pass} pass, ${r.cells.length - pass} fail, ${CLIENTS.length * AGENT_UPSTREAMS.length - r.cells.length} not run`,
  );
  out.push(' '.repeat(18) + AGENT_UPSTREAMS.map((u) => u.id.padEnd(18)).join(''));
  for (const c of CLIENTS)
    out.push(
      `${c.id} ${r.versions[c.id]}`.padEnd(18) +
        AGENT_UPSTREAMS.map((u) => {
          const cell = cellOf(r, c.id, u.id);
          return (cell ? `${cell.outcome === 'pass' ? 'pass' : 'FAIL'} ${seconds(cell.ms)}` : '-').padEnd(18);
        }).join(''),
    );
  for (const c of r.cells.filter((x) => x.outcome === 'fail'))
    out.push(`  ✗ ${c.client} @ ${c.upstream}: ${c.error ?? ''}`);
  return out.join('\n');
}
