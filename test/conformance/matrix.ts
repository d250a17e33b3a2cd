/*
 * The conformance matrix of issue #20: every front door x every upstream dialect x every case.
 * Pure data, read by the suite (test/conformance/*.test.ts), by the page generator
 * (scripts/gen-conformance-docs.ts) and by the test that keeps docs/conformance.md in step with
 * the suite's case list.
 */

export const DOORS = [
  { id: 'openai-chat', label: 'OpenAI chat', endpoint: '/v1/chat/completions', sdk: '`openai` chat.completions' },
  { id: 'responses', label: 'OpenAI Responses', endpoint: '/v1/responses', sdk: '`openai` responses' },
  {
    id: 'anthropic',
    label: 'Anthropic Messages',
    endpoint: '/v1/messages, /v1/messages/count_tokens',
    sdk: '`@anthropic-ai/sdk` messages',
  },
  {
    id: 'gemini',
    label: 'Gemini',
    endpoint: '/v1beta/models/{model}:generateContent, :streamGenerateContent, :countTokens',
    sdk: '`@google/genai` models',
  },
] as const;

export type DoorId = (typeof DOORS)[number]['id'];

/**
 * The strict fake upstream of each dialect (scripts/fake-upstream/strict/) and the channel type
 * the suite gives it. The chat-only upstream is a DeepSeek channel: an OpenAI-compatible vendor
 * with Chat Completions and no Responses API.
 */
export const UPSTREAMS = [
  { id: 'openai', label: 'OpenAI', channelType: 1 },
  { id: 'openai-chat-only', label: 'chat-only OpenAI-compatible', channelType: 43 },
  { id: 'anthropic', label: 'Anthropic', channelType: 14 },
  { id: 'gemini', label: 'Gemini', channelType: 24 },
] as const;

export type UpstreamId = (typeof UPSTREAMS)[number]['id'];

interface CaseInfo {
  id: string;
  label: string;
  /** What the cell asserts, in a user's words (the page's legend). */
  checks: string;
  /** The doors the case applies to (all when absent): a dialect without the feature has no cell. */
  doors?: readonly DoorId[];
  /** The upstreams the case applies to (all when absent): a wire shape only some upstreams send. */
  upstreams?: readonly UpstreamId[];
}

export const CASES = [
  { id: 'text', label: 'text', checks: 'a plain answer: content and finish reason as the SDK reads them' },
  { id: 'stream', label: 'stream', checks: "the same answer streamed; the SDK's stream helper assembles it" },
  { id: 'tool-call', label: 'tool call', checks: 'a function call with its name and JSON arguments' },
  {
    id: 'stream-tool-call',
    label: 'streamed tool call',
    checks: 'the call streamed; the SDK assembles one call with parseable arguments',
  },
  {
    id: 'tool-round-trip',
    label: 'tool result round trip (3 turns)',
    checks: 'call, tool result, answer, then a new question that calls again with the whole history',
  },
  {
    id: 'thinking-tool-loop',
    label: 'tool loop on a thinking model (3 turns)',
    checks:
      'the round trip with reasoning on, echoing what the SDK returned: signatures reach the upstream on turns 2 and 3',
  },
  {
    id: 'usage-billing',
    label: 'usage and billed quota',
    checks: "usage the SDK reads equals the upstream's and the log row's; the user is charged exactly the quota",
  },
  { id: 'image-in', label: 'image in', checks: 'an image in the user turn reaches the upstream' },
  {
    id: 'image-in-tool-result',
    label: 'image in a tool result',
    checks: 'a tool result carrying a screenshot reaches the upstream (bytes included)',
  },
  {
    id: 'tool-error',
    label: 'tool error result',
    checks:
      'a tool result marked as failed reaches the upstream as a failure in its own way: Anthropic `is_error`, Gemini `response.error`, OpenAI an "Error: " prefix',
    doors: ['anthropic', 'gemini'],
  },
  {
    id: 'system-blocks',
    label: 'system blocks kept apart',
    checks:
      'two system blocks reach the upstream as two texts (blocks, parts, or joined with a separator), never glued',
    doors: ['openai-chat', 'responses', 'anthropic', 'gemini'],
  },
  {
    id: 'reasoning',
    label: 'reasoning in and out',
    checks:
      "reasoning asked in the door's way reaches the upstream in its own; reasoning text comes back in the door's way (JSON and stream)",
  },
  {
    id: 'reasoning-content',
    label: 'reasoning as `reasoning_content`',
    checks:
      "an upstream answering its reasoning as DeepSeek's `reasoning_content` (JSON and stream): the client sees the text exactly once in its door's way (OpenAI chat: the vendor's field as it came; Responses: a reasoning item's summary; Anthropic: one thinking block; Gemini: `thought` parts) and the answer text unchanged",
    upstreams: ['openai-chat-only'],
  },
  {
    id: 'reasoning-field',
    label: 'reasoning as `reasoning`',
    checks: "the same with vLLM's and OpenRouter's `reasoning` field",
    upstreams: ['openai-chat-only'],
  },
  {
    id: 'reasoning-details',
    label: 'reasoning as `reasoning_details`',
    checks:
      "the same with OpenRouter's shape: `reasoning` and `reasoning_details` (a signed text item, an encrypted item) together, never shown twice; the encrypted item never reaches the text",
    upstreams: ['openai-chat-only'],
  },
  {
    id: 'structured-output',
    label: 'structured output (JSON Schema)',
    checks: "the schema reaches the upstream in its own form; the answer is the upstream's JSON, not a tool call",
  },
  {
    id: 'n',
    label: 'n > 1',
    checks: 'two choices (candidates), JSON and streamed, billed for both',
    doors: ['openai-chat', 'gemini'],
  },
  {
    id: 'hints',
    label: 'hint parameters',
    checks:
      'prompt_cache_key, prompt_cache_retention, safety_identifier, user, metadata, store and service_tier: kept for OpenAI, never forwarded to an upstream that refuses them',
    doors: ['openai-chat', 'responses'],
  },
  {
    id: 'prompt-cache',
    label: 'prompt cache across turns (3 turns)',
    checks:
      "an agent's three turns with a system prompt and a tool: a converted request reaches Anthropic with at most 4 cache breakpoints (the system prompt, the last block, where the previous turn ended) and each turn reads the turn before it from the cache; an Anthropic client's own breakpoints go as they came, none added; OpenAI gets `prompt_cache_key`; the upstream's cache reads come back as the door's cached tokens and are billed with the cache ratios",
  },
  {
    id: 'namespace-tools',
    label: 'namespace tools (Codex)',
    checks:
      "a `namespace` tool's functions (Codex 0.171's multi_agent_v1) reach the upstream as function tools (flat names, `namespace__name`, where the upstream has no namespaces); the call comes back as a `function_call` with `namespace` and the tool's own name, JSON and streamed; echoed with its output, it reaches the upstream as the same call and result",
    doors: ['responses'],
  },
  {
    id: 'declared-built-in',
    label: 'declared built-in tool left out',
    checks:
      "a built-in tool the client only declares (OpenAI's `web_search`, Anthropic's `web_search_20250305`) next to a function tool: kept where the upstream runs it (the door's own dialect), elsewhere left out and named in the `X-Switchyard-Dropped-Tools` header and the log row, JSON and streamed; the function tool is still called",
    doors: ['responses', 'anthropic'],
  },
  {
    id: 'required-built-in',
    label: 'required built-in tool',
    checks:
      "a request that requires the built-in tool (`tool_choice`: Claude Code's WebSearch request, a Responses `required` with only `web_search`): served where the upstream runs it, elsewhere a 400 in the caller's dialect naming the tool",
    doors: ['responses', 'anthropic'],
  },
  {
    id: 'upstream-error',
    label: "upstream error in the caller's dialect",
    checks: "the SDK throws its own error class with the upstream's status and message",
  },
  {
    id: 'count-tokens',
    label: 'token counting',
    checks: "a positive count (the upstream's own when it has one), never billed",
    doors: ['anthropic', 'gemini'],
  },
] as const satisfies readonly CaseInfo[];

export type CaseId = (typeof CASES)[number]['id'];

export const casesFor = (door: DoorId) =>
  CASES.filter((c) => !('doors' in c) || (c.doors as readonly DoorId[]).includes(door));

/** Whether a case has a cell for this upstream. */
export const appliesTo = (c: CaseInfo, u: UpstreamId) => !c.upstreams || c.upstreams.includes(u);

export const doorLabel = (id: DoorId) => DOORS.find((d) => d.id === id)!.label;
export const upstreamLabel = (id: UpstreamId) => UPSTREAMS.find((u) => u.id === id)!.label;
export const caseLabel = (id: CaseId) => CASES.find((c) => c.id === id)!.label;

/** The recorded client shapes (test/conformance/fixtures/*.json), sent raw through their door to every upstream. */
export const CLIENT_SHAPES = [
  { id: 'claude-code', label: 'Claude Code', door: 'anthropic' },
  { id: 'codex-cli', label: 'Codex CLI', door: 'responses' },
  { id: 'codex-cli-gpt5', label: 'Codex CLI on a GPT-5 model', door: 'responses' },
  { id: 'gemini-cli', label: 'Gemini CLI', door: 'gemini' },
  { id: 'chat-app', label: 'chat app', door: 'openai-chat' },
] as const satisfies readonly { id: string; label: string; door: DoorId }[];

export type ClientShapeId = (typeof CLIENT_SHAPES)[number]['id'];

/** The channel-type suite's cases (channel-types.test.ts): each channel type with a relaying adapter of its own, through every door. */
export const TYPE_CASES = [
  {
    id: 'text',
    label: 'text',
    checks: "a plain answer; usage the SDK reads, the log row and the charge are the provider's",
  },
  {
    id: 'stream',
    label: 'stream',
    checks: 'the same answer streamed in pieces; the SDK assembles it and reads the usage',
  },
  {
    id: 'error',
    label: 'error',
    checks: "the provider's error reaches the SDK in its own dialect, with its status and message; nothing is charged",
  },
] as const;

export type TypeCaseId = (typeof TYPE_CASES)[number]['id'];
