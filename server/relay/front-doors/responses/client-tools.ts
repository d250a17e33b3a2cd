import { createHash } from 'node:crypto';
import { refusal, type RelayError } from '../../errors.ts';
import type { ResponsesItem, ResponsesTool } from '../../providers/openai/responses-bridge/shapes.ts';

/*
 * The Responses tools a converted request can carry, the way clients mean them (docs/conversion.md
 * § Responses). Function and custom tools run on the client: they are carried. A `namespace` tool
 * groups such tools (Codex 0.171 declares its sub-agent tools as the namespace `multi_agent_v1`): its
 * tools become function tools with a flat name, and a call to one goes back to the client as OpenAI
 * writes it, `{type: "function_call", namespace, name}` with the tool's own name (Codex answers a
 * call named otherwise with "unsupported call"). Every other type (web_search, file_search,
 * tool_search, code_interpreter, mcp, …) runs on OpenAI's servers: declared, it is left out and
 * reported (the X-Switchyard-Dropped-Tools header and the log row); required, it is refused.
 */

/** The name a namespaced tool has in the namespace and the namespace's name. */
export interface NamespacedName {
  namespace: string;
  name: string;
}

/** A namespace tool: function and custom tools under one name. */
interface NamespaceTool extends ResponsesTool {
  tools?: ResponsesTool[];
}

export interface ClientTools {
  /** The function and custom tools to carry, namespaces flattened (their tools under flat names). */
  tools: ResponsesTool[];
  /** Flat name -> the namespace and the tool's own name. */
  namespaced: ReadonlyMap<string, NamespacedName>;
  /** The types of the built-in tools left out, each once, in the client's order. */
  dropped: string[];
  /** The flat name of a namespaced tool: the one given to it here, else the usual one (a tool no longer declared). */
  flatOf(namespace: string, name: string): string;
}

const CLIENT_SIDE = new Set(['function', 'custom']);
/** Provider tool names: Anthropic and OpenAI take `^[a-zA-Z0-9_-]{1,64}$`, Gemini wants a letter or _ first. */
const VALID_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/**
 * A namespaced tool's flat name: Codex's own spelling, `namespace__name` (stray underscores at the
 * joint trimmed), when every provider takes it; otherwise a readable head and a hash of the pair,
 * 64 characters at most. Deterministic, so the same pair has the same name on every turn; the way
 * back is the turn's table (ClientTools.namespaced), never parsing.
 */
export function flatToolName(namespace: string, name: string): string {
  const joined = `${namespace.replace(/_+$/, '')}__${name.replace(/^_+/, '')}`;
  if (VALID_NAME.test(joined)) return joined;
  return hashedName(namespace, name, joined);
}

function hashedName(namespace: string, name: string, joined: string): string {
  const hash = createHash('sha256').update(`${namespace}\u0000${name}`).digest('hex').slice(0, 8);
  const head = joined.replace(/[^a-zA-Z0-9_-]/g, '_').replace(/^(?=[^a-zA-Z_])/, '_');
  return `${head.slice(0, 55)}_${hash}`;
}

/** Splits the client's tools into what a converted request carries and the built-in tools it leaves out. */
export function clientTools(given: readonly ResponsesTool[]): ClientTools {
  const tools: ResponsesTool[] = [];
  const namespaced = new Map<string, NamespacedName>();
  const byPair = new Map<string, string>();
  const dropped: string[] = [];
  const drop = (type: unknown) => {
    const t = String(type ?? 'unknown');
    if (!dropped.includes(t)) dropped.push(t);
  };
  const plainNames = new Set(given.filter((t) => CLIENT_SIDE.has(String(t.type)) && t.name).map((t) => t.name));
  for (const t of given) {
    if (t.type !== 'namespace') {
      if (CLIENT_SIDE.has(String(t.type))) tools.push(t);
      else drop(t.type);
      continue;
    }
    const space = String(t.name ?? '');
    for (const inner of (t as NamespaceTool).tools ?? []) {
      if (!CLIENT_SIDE.has(String(inner.type))) {
        drop(inner.type);
        continue;
      }
      const own = String(inner.name ?? '');
      let flat = flatToolName(space, own);
      // Two pairs spelled alike once joined, or a plain tool of that name: the later one is hashed.
      if (namespaced.has(flat) || plainNames.has(flat)) flat = hashedName(space, own, flat);
      namespaced.set(flat, { namespace: space, name: own });
      byPair.set(`${space}\u0000${own}`, flat);
      tools.push({ ...inner, name: flat });
    }
  }
  return {
    tools,
    namespaced,
    dropped,
    flatOf: (namespace, name) => byPair.get(`${namespace}\u0000${name}`) ?? flatToolName(namespace, name),
  };
}

/** Input items with the calls to namespaced tools renamed to their flat names (the history of earlier turns). */
export function flattenCalls(items: readonly ResponsesItem[], ct: ClientTools): ResponsesItem[] {
  return items.map((item) => {
    if ((item.type !== 'function_call' && item.type !== 'custom_tool_call') || typeof item.namespace !== 'string')
      return item;
    return { ...item, name: ct.flatOf(item.namespace, item.name ?? '') };
  });
}

/** A call's name as the client knows it: the tool's own name and its namespace for a namespaced tool. */
export function callName(
  flat: string,
  namespaced: ReadonlyMap<string, NamespacedName>,
): NamespacedName | { name: string } {
  return namespaced.get(flat) ?? { name: flat };
}

/** Output items (an answer) with each call to a namespaced tool written as OpenAI writes it. */
export function withNamespaces(
  items: ResponsesItem[],
  namespaced: ReadonlyMap<string, NamespacedName>,
): ResponsesItem[] {
  if (namespaced.size === 0) return items;
  return items.map((item) => {
    if (item.type !== 'function_call' && item.type !== 'custom_tool_call') return item;
    const n = namespaced.get(item.name ?? '');
    return n ? { ...item, name: n.name, namespace: n.namespace } : item;
  });
}

export const forcedBuiltIn = (type: string): RelayError =>
  refusal(
    400,
    `tool_choice requires the built-in tool "${type}", which runs on OpenAI's servers; this model's channel does not speak the Responses API. Let the model choose (tool_choice "auto": a declared built-in tool is then left out) or use a model on an OpenAI channel.`,
    `tool_choice 要求使用内置工具 "${type}"，它只能在 OpenAI 的服务器上运行，而此模型的渠道不支持 Responses API。请让模型自行选择（tool_choice 设为 "auto"，声明的内置工具会被略去），或改用 OpenAI 渠道的模型。`,
    'unsupported_tool',
  );

type Choice = { type?: string; name?: string; namespace?: string; mode?: string; tools?: Choice[] };

/**
 * The client's tool_choice in terms of the carried tools: a namespaced function named by its own
 * name (with or without `namespace`) becomes its flat name; built-in entries of allowed_tools are
 * left out with the tools. A choice that requires a built-in tool (names one, or forces a call
 * when only built-in tools were offered) is refused. No tool_choice is kept when no tool is left.
 */
export function choiceFor(choice: unknown, ct: ClientTools): { choice?: unknown; refusal?: RelayError } {
  if (choice === undefined || choice === null) return {};
  const none = ct.tools.length === 0;
  if (choice === 'required' && none && ct.dropped.length > 0) return { refusal: forcedBuiltIn(ct.dropped[0]) };
  if (typeof choice === 'string') return none && choice !== 'required' ? {} : { choice };
  const c = choice as Choice;
  if (c.type === 'function' || c.type === 'custom') return { choice: { ...c, name: resolve(c, ct) } };
  if (c.type === 'allowed_tools' && Array.isArray(c.tools)) {
    const kept: Choice[] = [];
    const builtIn: string[] = [];
    for (const e of c.tools) {
      if (e.type === 'function' || e.type === 'custom') kept.push({ type: e.type, name: resolve(e, ct) });
      else if (e.type === 'namespace') {
        for (const [flat, n] of ct.namespaced) if (n.namespace === e.name) kept.push({ type: 'function', name: flat });
      } else builtIn.push(String(e.type ?? 'unknown'));
    }
    if (c.mode === 'required' && kept.length === 0 && builtIn.length > 0) return { refusal: forcedBuiltIn(builtIn[0]) };
    return { choice: { ...c, tools: kept } };
  }
  return { refusal: forcedBuiltIn(String(c.type ?? 'unknown')) };
}

/** The carried name a function choice means: a plain tool's, else the one namespaced tool of that own name. */
function resolve(c: Choice, ct: ClientTools): string {
  const name = String(c.name ?? '');
  if (typeof c.namespace === 'string') return ct.flatOf(c.namespace, name);
  if (ct.tools.some((t) => t.name === name && !ct.namespaced.has(name))) return name;
  const matches = [...ct.namespaced].filter(([, n]) => n.name === name);
  return matches.length === 1 ? matches[0][0] : name;
}
