import type { FakeUpstream } from '../../../scripts/fake-upstream/server.ts';

/*
 * An agent session as the session-affinity tests play it: a long system prompt (an agent's
 * instructions, about 1,000 of the fake's tokens) and a conversation that grows by one exchange a turn,
 * each bringing a tool's output (about 500 tokens), sent as the real clients send it: the same
 * history again, plus the new message.
 */

export interface Turn {
  status: number;
  /** The upstream keys that saw this turn, in order (more than one when an attempt failed). */
  keys: string[];
  prompt: number;
  cached: number;
}

const SYSTEM = 'You are a careful coding agent working in a large repository. Read before you write. '.repeat(48);

export interface SessionOptions {
  /** Headers naming the session (X-Session-Id...); none: the gateway goes by the stable prefix. */
  headers?: Record<string, string>;
  /** The first user message: what tells one session from another when no header does. */
  topic?: string;
  turns?: number;
  /** The fake upstreams whose requests tell which key served a turn (the harness's by default). */
  fakes?: FakeUpstream[];
  /** Gateways the turns go to in turn (several instances behind a load balancer); the harness's by default. */
  baseURLs?: string[];
}

/** Plays `turns` turns (default 5) through the gateway's chat endpoint; what each cost and where it went. */
export async function agentSession(
  h: { baseURL: string; fake: FakeUpstream },
  token: string,
  model: string,
  o: SessionOptions = {},
): Promise<Turn[]> {
  const fakes = o.fakes ?? [h.fake];
  const messages: { role: string; content: string }[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Please ${o.topic ?? 'fix the failing test in src/parser.ts'}.` },
  ];
  const turns: Turn[] = [];
  for (let i = 0; i < (o.turns ?? 5); i++) {
    const seen = fakes.map((f) => f.requests.length);
    const baseURL = o.baseURLs ? o.baseURLs[i % o.baseURLs.length] : h.baseURL;
    const res = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...o.headers },
      body: JSON.stringify({ model, messages }),
    });
    const body = (await res.json()) as {
      choices?: { message: { content: string } }[];
      usage?: { prompt_tokens: number; prompt_tokens_details?: { cached_tokens?: number } };
    };
    const keys = fakes.flatMap((f, k) =>
      f.requests.slice(seen[k]).map((r) => String(r.headers.authorization ?? '').replace(/^Bearer /, '')),
    );
    turns.push({
      status: res.status,
      keys,
      prompt: body.usage?.prompt_tokens ?? 0,
      cached: body.usage?.prompt_tokens_details?.cached_tokens ?? 0,
    });
    messages.push({ role: 'assistant', content: body.choices?.[0]?.message.content ?? '' });
    // The next turn brings a tool's output, as an agent's turns do: the conversation outgrows the system prompt.
    const output = `FAIL src/parser.test.ts (${o.topic ?? 'run'} #${i + 1}) expected token ${i} at line ${40 + i}\n`;
    messages.push({ role: 'user', content: `Test run ${i + 1} printed:\n${output.repeat(24)}What next?` });
  }
  return turns;
}

/** Cache-read tokens over prompt tokens, the whole session. */
export const cacheShare = (turns: Turn[]) =>
  turns.reduce((n, t) => n + t.cached, 0) /
  Math.max(
    1,
    turns.reduce((n, t) => n + t.prompt, 0),
  );
