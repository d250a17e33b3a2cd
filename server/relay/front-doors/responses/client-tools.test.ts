import { describe, expect, it } from 'vitest';
import type { ResponsesTool } from '../../providers/openai/responses-bridge/shapes.ts';
import { choiceFor, clientTools, flattenCalls, flatToolName, withNamespaces } from './client-tools.ts';
import { responsesBody, responsesToCanonical } from './request.ts';

const fn = (name: string): ResponsesTool => ({ type: 'function', name, parameters: { type: 'object' } });
/** Codex 0.171's tools for a model it does not know: function tools, its sub-agent namespace, web search. */
const codexTools = [
  fn('exec_command'),
  {
    type: 'namespace',
    name: 'multi_agent_v1',
    description: 'Sub-agents.',
    tools: [fn('spawn_agent'), fn('wait_agent')],
  },
  { type: 'web_search', external_web_access: false },
] as ResponsesTool[];
const PROVIDER_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

describe('flatToolName', () => {
  it('joins a namespace and a tool as Codex spells it flat, when every provider takes the name', () => {
    expect(flatToolName('multi_agent_v1', 'spawn_agent')).toBe('multi_agent_v1__spawn_agent');
    // Stray underscores at the joint are trimmed (mcp__server__ + tool).
    expect(flatToolName('mcp__github__', '_list_issues')).toBe('mcp__github__list_issues');
  });

  it('hashes names a provider would refuse, deterministically and within 64 characters', () => {
    const long = flatToolName('a'.repeat(50), 'b'.repeat(30));
    const dotted = flatToolName('crm.v2', 'find contact');
    for (const n of [long, dotted, flatToolName('9lives', 'x')]) expect(n).toMatch(PROVIDER_NAME);
    expect(flatToolName('a'.repeat(50), 'b'.repeat(30))).toBe(long);
    // Two pairs that read alike once cleaned up stay apart.
    expect(flatToolName('crm.v2', 'find contact')).not.toBe(flatToolName('crm_v2', 'find.contact'));
  });
});

describe('clientTools', () => {
  it('flattens namespaces in place, keeps function and custom tools, and names the built-in tools it leaves out', () => {
    const ct = clientTools([...codexTools, { type: 'custom', name: 'apply_patch' }, { type: 'web_search' }]);
    expect(ct.tools.map((t) => t.name)).toEqual([
      'exec_command',
      'multi_agent_v1__spawn_agent',
      'multi_agent_v1__wait_agent',
      'apply_patch',
    ]);
    expect(ct.tools[1]).toMatchObject({ type: 'function', parameters: { type: 'object' } });
    expect([...ct.namespaced]).toEqual([
      ['multi_agent_v1__spawn_agent', { namespace: 'multi_agent_v1', name: 'spawn_agent' }],
      ['multi_agent_v1__wait_agent', { namespace: 'multi_agent_v1', name: 'wait_agent' }],
    ]);
    expect(ct.dropped).toEqual(['web_search']);
  });

  it('gives a namespaced tool another name when its flat name is taken', () => {
    const ct = clientTools([fn('ns__tool'), { type: 'namespace', name: 'ns', tools: [fn('tool')] } as ResponsesTool]);
    const [plain, flat] = ct.tools.map((t) => t.name);
    expect(plain).toBe('ns__tool');
    expect(flat).not.toBe('ns__tool');
    expect(flat).toMatch(PROVIDER_NAME);
    expect(ct.flatOf('ns', 'tool')).toBe(flat);
  });
});

describe('calls to namespaced tools', () => {
  const ct = clientTools(codexTools);

  it('are renamed to their flat name in the history, and back to namespace + name in an answer', () => {
    const history = [
      { type: 'function_call', call_id: 'c1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{}' },
      { type: 'function_call', call_id: 'c2', name: 'exec_command', arguments: '{}' },
    ];
    const flat = flattenCalls(history, ct);
    expect(flat.map((i) => i.name)).toEqual(['multi_agent_v1__spawn_agent', 'exec_command']);
    expect(withNamespaces(flat, ct.namespaced)).toEqual(history);
  });

  it('survive the whole conversion: the canonical body holds the flat tools and calls, no namespace and no web_search', () => {
    const body = responsesBody.parse({
      model: 'm',
      tools: codexTools,
      input: [
        { type: 'message', role: 'user', content: 'spawn one' },
        { type: 'function_call', call_id: 'c1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: '{"agent_id":"a1"}' },
      ],
    });
    const r = responsesToCanonical(body, []);
    expect(r.refusal).toBeUndefined();
    expect(r.dropped).toEqual(['web_search']);
    const tools = r.canonical.tools as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual([
      'exec_command',
      'multi_agent_v1__spawn_agent',
      'multi_agent_v1__wait_agent',
    ]);
    expect(r.canonical.messages[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'c1', function: { name: 'multi_agent_v1__spawn_agent' } }],
    });
    expect(JSON.stringify(r.canonical)).not.toMatch(/web_search|"namespace"/);
  });
});

describe('choiceFor', () => {
  const ct = clientTools(codexTools);

  it('keeps auto and none, and a function named by its own name or with its namespace goes by its flat name', () => {
    expect(choiceFor('auto', ct)).toEqual({ choice: 'auto' });
    expect(choiceFor({ type: 'function', name: 'wait_agent' }, ct).choice).toMatchObject({
      name: 'multi_agent_v1__wait_agent',
    });
    expect(choiceFor({ type: 'function', name: 'spawn_agent', namespace: 'multi_agent_v1' }, ct).choice).toMatchObject({
      name: 'multi_agent_v1__spawn_agent',
    });
    expect(choiceFor({ type: 'function', name: 'exec_command' }, ct).choice).toMatchObject({ name: 'exec_command' });
  });

  it('narrows allowed_tools to the carried tools (a namespace entry is all its tools)', () => {
    const allowed = {
      type: 'allowed_tools',
      mode: 'required',
      tools: [{ type: 'namespace', name: 'multi_agent_v1' }, { type: 'web_search' }],
    };
    expect(choiceFor(allowed, ct).choice).toEqual({
      ...allowed,
      tools: [
        { type: 'function', name: 'multi_agent_v1__spawn_agent' },
        { type: 'function', name: 'multi_agent_v1__wait_agent' },
      ],
    });
  });

  it('refuses a choice that requires a built-in tool, naming it', () => {
    const onlySearch = clientTools([{ type: 'web_search' }]);
    for (const [choice, tools] of [
      [{ type: 'web_search_preview' }, ct],
      [{ type: 'file_search' }, ct],
      ['required', onlySearch],
      [{ type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] }, ct],
    ] as const) {
      const r = choiceFor(choice, tools);
      expect(r.refusal).toMatchObject({ status: 400, code: 'unsupported_tool' });
      expect(r.refusal?.message).toMatch(
        /^tool_choice requires the built-in tool "(web_search|web_search_preview|file_search)"/,
      );
    }
  });

  it('drops a tool_choice when no tool is left (only built-in tools were declared)', () => {
    expect(choiceFor('auto', clientTools([{ type: 'web_search' }]))).toEqual({});
  });
});
