import { describe, expect, it } from 'vitest';
import { validateOpenAI, validateOpenAIChatOnly } from './openai.ts';
import type { StrictRefusal } from './types.ts';

const chat = (body: Record<string, unknown>) => validateOpenAI('/v1/chat/completions', {}, body);
const responses = (body: Record<string, unknown>) => validateOpenAI('/v1/responses', {}, body);
const deepseek = (body: Record<string, unknown>) => validateOpenAIChatOnly('/v1/chat/completions', {}, body);
const messageOf = (r: StrictRefusal | null) => (r?.body as { error: { message: string } } | undefined)?.error.message;
const errorOf = (r: StrictRefusal | null) =>
  (r?.body as { error: Record<string, unknown> } | undefined)?.error as Record<string, unknown>;

const user = { role: 'user', content: 'Weather in Paris?' };
const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } };
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
  },
};
const loop = [
  user,
  { role: 'assistant', content: null, tool_calls: [call] },
  { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
];

describe('OpenAI chat completions (strict)', () => {
  it('passes a plain request, a tool loop and the hint parameters OpenAI documents', () => {
    expect(chat({ model: 'gpt-4o', messages: [user] })).toBeNull();
    expect(
      chat({
        model: 'gpt-4o',
        messages: loop,
        tools: [weatherTool],
        prompt_cache_key: 'k',
        safety_identifier: 's',
        store: false,
        service_tier: 'auto',
        metadata: { a: 'b' },
        stream: true,
        stream_options: { include_usage: true },
      }),
    ).toBeNull();
  });

  it('refuses unknown top-level arguments with OpenAI words', () => {
    const r = chat({ model: 'gpt-4o', messages: [user], thinking: { type: 'enabled' } });
    expect(r?.status).toBe(400);
    expect(errorOf(r)).toEqual({
      message: 'Unrecognized request argument supplied: thinking',
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
  });

  it("refuses the gateway's extension fields on messages, parts and tool calls", () => {
    const withBlocks = [user, { role: 'assistant', content: 'x', thinking_blocks: [], reasoning_content: 'r' }, user];
    expect(messageOf(chat({ model: 'gpt-4o', messages: withBlocks }))).toBe(
      "Additional properties are not allowed ('thinking_blocks', 'reasoning_content' were unexpected) - 'messages.1'",
    );
    const cached = { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] };
    expect(messageOf(chat({ model: 'gpt-4o', messages: [cached] }))).toBe(
      "Additional properties are not allowed ('cache_control' was unexpected) - 'messages.0.content.0'",
    );
    const signed = [user, { role: 'assistant', content: null, tool_calls: [{ ...call, thought_signature: 's' }] }];
    expect(messageOf(chat({ model: 'gpt-4o', messages: [...signed, loop[2]] }))).toMatch(
      /'thought_signature' was unexpected\) - 'messages.1.tool_calls.0'/,
    );
  });

  it('refuses a tool message that answers no call, and calls left unanswered', () => {
    const orphan = chat({ model: 'gpt-4o', messages: [user, { role: 'tool', tool_call_id: 'call_9', content: 'x' }] });
    expect(errorOf(orphan)).toMatchObject({
      message:
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      param: 'messages.[1].role',
    });
    const open = chat({ model: 'gpt-4o', messages: [...loop.slice(0, 2), user] });
    expect(messageOf(open)).toBe(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1",
    );
  });

  it('refuses images in tool messages (text only) and arguments that are not a string', () => {
    const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
    const r = chat({ model: 'gpt-4o', messages: [...loop.slice(0, 2), { ...loop[2], content: [image] }] });
    expect(messageOf(r)).toBe(
      "Invalid 'messages[2]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL.",
    );
    expect(chat({ model: 'gpt-4o', messages: [{ role: 'user', content: [image] }] })).toBeNull();
    const objectArgs = { ...call, function: { name: 'get_weather', arguments: { location: 'Paris' } } };
    const r2 = chat({
      model: 'gpt-4o',
      messages: [user, { role: 'assistant', content: null, tool_calls: [objectArgs] }, loop[2]],
    });
    expect(errorOf(r2)).toMatchObject({ code: 'invalid_type', param: 'messages[1].tool_calls[0].function.arguments' });
  });

  it("refuses Gemini's OpenAPI-style uppercase schema types and non-strict schemas marked strict", () => {
    const upper = { type: 'function', function: { name: 'f', parameters: { type: 'OBJECT', properties: {} } } };
    expect(errorOf(chat({ model: 'gpt-4o', messages: [user], tools: [upper] }))).toMatchObject({
      message: `Invalid schema for function 'f': schema must be a JSON Schema of 'type: "object"', got 'type: "OBJECT"'.`,
      code: 'invalid_function_parameters',
    });
    const nested = {
      type: 'function',
      function: { name: 'f', parameters: { type: 'object', properties: { a: { type: 'STRING' } } } },
    };
    expect(messageOf(chat({ model: 'gpt-4o', messages: [user], tools: [nested] }))).toBe(
      "Invalid schema for function 'f': In context=('properties', 'a'), 'STRING' is not valid under any of the given schemas.",
    );
    const strict = { type: 'function', function: { ...weatherTool.function, strict: true } };
    expect(messageOf(chat({ model: 'gpt-4o', messages: [user], tools: [strict] }))).toBe(
      "Invalid schema for function 'get_weather': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    );
    const fixed = {
      ...strict,
      function: { ...strict.function, parameters: { ...weatherTool.function.parameters, additionalProperties: false } },
    };
    expect(chat({ model: 'gpt-4o', messages: [user], tools: [fixed] })).toBeNull();
  });

  it('refuses max_tokens, sampling and penalties on reasoning models; reasoning_effort elsewhere', () => {
    expect(errorOf(chat({ model: 'o3', messages: [user], max_tokens: 100 }))).toEqual({
      message:
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unsupported_parameter',
    });
    expect(messageOf(chat({ model: 'gpt-5', messages: [user], temperature: 0.7 }))).toBe(
      "Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported.",
    );
    expect(
      chat({
        model: 'gpt-5',
        messages: [user],
        temperature: 1,
        max_completion_tokens: 100,
        reasoning_effort: 'minimal',
      }),
    ).toBeNull();
    expect(errorOf(chat({ model: 'o4-mini', messages: [user], presence_penalty: 0.5 }))).toMatchObject({
      param: 'presence_penalty',
    });
    expect(messageOf(chat({ model: 'o3', messages: [user], reasoning_effort: 'minimal' }))).toBe(
      "Unsupported value: 'reasoning_effort' does not support 'minimal' with this model. Supported values are: 'low', 'medium', and 'high'.",
    );
    expect(messageOf(chat({ model: 'gpt-4o', messages: [user], reasoning_effort: 'low' }))).toBe(
      "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
    );
    // gpt-5-chat is the non-reasoning chat model; behaviour tokens after '+' are not part of the name.
    expect(chat({ model: 'gpt-5-chat-latest', messages: [user], max_tokens: 10, temperature: 0.2 })).toBeNull();
    expect(chat({ model: 'o3+fail-500', messages: [user], max_tokens: 10 })?.status).toBe(400);
  });

  it('refuses empty tools and tool settings without tools (converters that always send them)', () => {
    expect(errorOf(chat({ model: 'gpt-4o', messages: [user], tools: [] }))).toMatchObject({
      code: 'empty_array',
      param: 'tools',
    });
    expect(messageOf(chat({ model: 'gpt-4o', messages: [user], parallel_tool_calls: false }))).toBe(
      "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
    );
    expect(messageOf(chat({ model: 'gpt-4o', messages: [user], tool_choice: 'auto' }))).toBe(
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
    );
    expect(errorOf(chat({ model: 'gpt-4o', messages: [{ role: 'user', content: [] }] }))).toMatchObject({
      code: 'empty_array',
    });
  });

  it('refuses stream_options without stream, and a json_schema format without a name', () => {
    expect(messageOf(chat({ model: 'gpt-4o', messages: [user], stream_options: { include_usage: true } }))).toBe(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
    );
    expect(
      errorOf(
        chat({
          model: 'gpt-4o',
          messages: [user],
          response_format: { type: 'json_schema', json_schema: { schema: {} } },
        }),
      ),
    ).toMatchObject({ param: 'response_format.json_schema.name' });
  });
});

describe('OpenAI Responses (strict)', () => {
  const fnCall = { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{}' };
  const fnOut = { type: 'function_call_output', call_id: 'call_1', output: 'sunny' };
  const fnTool = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } };

  it('passes a Codex-like request: instructions, store false, function tools, a tool loop, reasoning', () => {
    expect(
      responses({
        model: 'gpt-5',
        instructions: 'be brief',
        store: false,
        stream: true,
        include: ['reasoning.encrypted_content'],
        reasoning: { effort: 'low', summary: 'auto' },
        tools: [fnTool],
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
          { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' },
          fnCall,
          fnOut,
        ],
      }),
    ).toBeNull();
  });

  it("passes Codex 0.171's additions: client_metadata, a namespace tool, a namespaced call in the history", () => {
    const namespace = { type: 'namespace', name: 'multi_agent_v1', description: 'Sub-agents.', tools: [fnTool] };
    const call = { ...fnCall, id: 'fc_1', status: 'completed', namespace: 'multi_agent_v1' };
    const body = { model: 'gpt-5', client_metadata: { session_id: 's1' }, tools: [namespace], input: [call, fnOut] };
    expect(responses(body)).toBeNull();
    // The namespace's function tools are checked as top-level ones are.
    const bad = { ...namespace, tools: [{ type: 'function', function: { name: 'f' } }] };
    expect(messageOf(responses({ ...body, tools: [bad] }))).toBe("Missing required parameter: 'tools[0].name'.");
  });

  it('refuses unknown parameters, at the top level and inside items', () => {
    expect(errorOf(responses({ model: 'gpt-4o', input: 'hi', max_tokens: 5 }))).toEqual({
      message: "Unknown parameter: 'max_tokens'.",
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unknown_parameter',
    });
    const item = { role: 'user', content: 'hi', metadata: {} };
    expect(messageOf(responses({ model: 'gpt-4o', input: [item] }))).toBe("Unknown parameter: 'input[0].metadata'.");
  });

  it('refuses input_text in an assistant message and a function output that answers no call', () => {
    const assistant = { type: 'message', role: 'assistant', content: [{ type: 'input_text', text: 'x' }] };
    expect(messageOf(responses({ model: 'gpt-4o', input: [assistant] }))).toBe(
      "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'.",
    );
    expect(messageOf(responses({ model: 'gpt-4o', input: [fnOut] }))).toBe(
      'No tool call found for function call output with call_id call_1.',
    );
    expect(responses({ model: 'gpt-4o', previous_response_id: 'resp_1', input: [fnOut] })).toBeNull();
  });

  it('refuses chat-shaped function tools, reasoning items it cannot look up, and reasoning on gpt-4o', () => {
    const chatTool = { type: 'function', function: { name: 'f', parameters: {} } };
    expect(messageOf(responses({ model: 'gpt-4o', input: 'hi', tools: [chatTool] }))).toBe(
      "Missing required parameter: 'tools[0].name'.",
    );
    const rs = { type: 'reasoning', id: 'rs_1', summary: [] };
    expect(messageOf(responses({ model: 'gpt-5', store: false, input: [rs] }))).toMatch(
      /^Item with id 'rs_1' not found/,
    );
    expect(messageOf(responses({ model: 'gpt-4o', input: 'hi', reasoning: { effort: 'low' } }))).toBe(
      "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
    );
    expect(messageOf(responses({ model: 'o3', input: 'hi', temperature: 0.5 }))).toBe(
      "Unsupported parameter: 'temperature' is not supported with this model.",
    );
  });
});

describe('chat-only OpenAI-compatible vendor (DeepSeek manner, strict)', () => {
  it('has no Responses API', () => {
    expect(validateOpenAIChatOnly('/v1/responses', {}, { model: 'm', input: 'hi' })).toEqual({
      status: 404,
      body: { detail: 'Not Found' },
    });
  });

  it('ignores unknown top-level fields and reasoning fields, as DeepSeek does', () => {
    expect(
      deepseek({ model: 'deepseek-chat', messages: loop, thinking: {}, reasoning_effort: 'high', foo: 1 }),
    ).toBeNull();
  });

  it('takes reasoning history in every spelling on assistant turns, as vendors do; OpenAI refuses each', () => {
    const details = [{ type: 'reasoning.encrypted', data: 'e', format: 'anthropic-claude-v1', index: 0 }];
    for (const extra of [{ reasoning_content: 'r' }, { reasoning: 'r' }, { reasoning_details: details }]) {
      const messages = [user, { ...loop[1], ...extra }, loop[2]];
      expect(deepseek({ model: 'deepseek-reasoner', messages })).toBeNull();
      expect(messageOf(chat({ model: 'gpt-4o', messages }))).toMatch(/^Additional properties are not allowed/);
    }
  });

  it('refuses roles and part types outside its closed sets, with its deserializer words (422)', () => {
    const dev = deepseek({ model: 'deepseek-chat', messages: [{ role: 'developer', content: 'x' }, user] });
    expect(dev?.status).toBe(422);
    expect(messageOf(dev)).toMatch(
      /^Failed to deserialize the JSON body into the target type: messages\[0\]: unknown variant `developer`/,
    );
    const image = { type: 'image_url', image_url: { url: 'https://x/y.png' } };
    const r = deepseek({ model: 'deepseek-chat', messages: [...loop.slice(0, 2), { ...loop[2], content: [image] }] });
    expect(messageOf(r)).toMatch(/messages\[2\]\.content\[0\]: unknown variant `image_url`, expected `text`/);
  });

  it('checks the tool-call order like OpenAI, in its own words', () => {
    const orphan = deepseek({
      model: 'deepseek-chat',
      messages: [user, { role: 'tool', tool_call_id: 'c', content: 'x' }],
    });
    expect(errorOf(orphan)).toEqual({
      message: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_request_error',
    });
  });
});
