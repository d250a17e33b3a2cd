import { describe, expect, it } from 'vitest';
import { validateGemini } from './gemini.ts';
import { SKIP_THOUGHT_SIGNATURE, thoughtSignatureFor } from './signatures.ts';
import type { StrictRefusal } from './types.ts';

const generate = (model: string, body: Record<string, unknown>) =>
  validateGemini(`/v1beta/models/${model}:generateContent`, {}, body);
const messageOf = (r: StrictRefusal | null) => (r?.body as { error: { message: string } } | undefined)?.error.message;

const user = { role: 'user', parts: [{ text: 'Weather in Paris?' }] };
const decl = {
  name: 'get_weather',
  parameters: { type: 'OBJECT', properties: { location: { type: 'STRING' } }, required: ['location'] },
};
const tools = [{ functionDeclarations: [decl] }];
const call = (sig?: string) => ({
  role: 'model',
  parts: [
    { functionCall: { name: 'get_weather', args: { location: 'Paris' } }, ...(sig ? { thoughtSignature: sig } : {}) },
  ],
});
const response = {
  role: 'user',
  parts: [{ functionResponse: { name: 'get_weather', response: { result: 'sunny' } } }],
};

describe('Gemini generateContent (strict)', () => {
  it('passes a @google/genai-like request and a Gemini CLI-like one (parametersJsonSchema, snake_case names)', () => {
    expect(
      generate('gemini-2.5-flash', {
        contents: [user, call(), response],
        tools,
        systemInstruction: { parts: [{ text: 'be brief' }] },
        generationConfig: { maxOutputTokens: 100, thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
      }),
    ).toBeNull();
    const cli = {
      name: 'read_file',
      parametersJsonSchema: {
        type: 'object',
        properties: { path: { type: 'string', format: 'uri' } },
        additionalProperties: false,
      },
    };
    expect(
      generate('gemini-2.5-pro', {
        contents: [user],
        tools: [{ function_declarations: [cli] }],
        generation_config: { thinking_config: { include_thoughts: true } },
      }),
    ).toBeNull();
  });

  it('refuses unknown names anywhere, with the proto parser words and field violations', () => {
    const r = generate('gemini-2.5-flash', {
      contents: [user],
      generationConfig: { maxOutputTokens: 5, verbosity: 'low' },
    });
    expect(r).toEqual({
      status: 400,
      body: {
        error: {
          code: 400,
          message:
            'Invalid JSON payload received. Unknown name "verbosity" at \'generation_config\': Cannot find field.',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: [
                {
                  field: 'generation_config',
                  description:
                    'Invalid JSON payload received. Unknown name "verbosity" at \'generation_config\': Cannot find field.',
                },
              ],
            },
          ],
        },
      },
    });
    expect(messageOf(generate('gemini-2.5-flash', { contents: [user], store: false }))).toBe(
      'Invalid JSON payload received. Unknown name "store": Cannot find field.',
    );
    const part = { role: 'user', parts: [{ text: 'hi', cache_control: { type: 'ephemeral' } }] };
    expect(messageOf(generate('gemini-2.5-flash', { contents: [part] }))).toBe(
      'Invalid JSON payload received. Unknown name "cache_control" at \'contents[0].parts[0]\': Cannot find field.',
    );
  });

  it("refuses JSON Schema keywords Gemini's Schema does not have, at their path", () => {
    const params = {
      type: 'object',
      $schema: 'http://json-schema.org/draft-07/schema#',
      properties: { n: { type: 'integer', exclusiveMinimum: 0 } },
      additionalProperties: false,
    };
    const r = generate('gemini-2.5-flash', {
      contents: [user],
      tools: [{ functionDeclarations: [{ name: 'f', parameters: params }] }],
    });
    expect(messageOf(r)).toBe(
      [
        'Invalid JSON payload received. Unknown name "$schema" at \'tools[0].function_declarations[0].parameters\': Cannot find field.',
        'Invalid JSON payload received. Unknown name "exclusiveMinimum" at \'tools[0].function_declarations[0].parameters.properties[0].value\': Cannot find field.',
        'Invalid JSON payload received. Unknown name "additionalProperties" at \'tools[0].function_declarations[0].parameters\': Cannot find field.',
      ].join('\n'),
    );
    const list = { type: 'object', properties: { a: { type: ['string', 'null'] } } };
    expect(
      messageOf(
        generate('gemini-2.5-flash', {
          contents: [user],
          tools: [{ functionDeclarations: [{ name: 'f', parameters: list }] }],
        }),
      ),
    ).toBe(
      'Invalid JSON payload received. Unknown name "type" at \'tools[0].function_declarations[0].parameters.properties[0].value\': Proto field is not repeating, cannot start list.',
    );
  });

  it("refuses string formats other than enum/date-time (Claude Code's format: uri) and other schema rules", () => {
    const uri = { type: 'object', properties: { url: { type: 'string', format: 'uri' } } };
    expect(
      messageOf(
        generate('gemini-2.5-flash', {
          contents: [user],
          tools: [{ functionDeclarations: [{ name: 'fetch', parameters: uri }] }],
        }),
      ),
    ).toBe(
      "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[url].format: only 'enum' and 'date-time' are supported for STRING type\n",
    );
    const empty = { type: 'object', properties: {}, required: ['x'] };
    expect(
      messageOf(
        generate('gemini-2.5-flash', {
          contents: [user],
          tools: [{ functionDeclarations: [{ name: 'f', parameters: empty }] }],
        }),
      ),
    ).toBe(
      '* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type\n' +
        '* GenerateContentRequest.tools[0].function_declarations[0].parameters.required[0]: property is not defined\n',
    );
    const schema = { type: 'OBJECT', properties: { a: { type: 'STRING' } } };
    expect(
      messageOf(generate('gemini-2.5-flash', { contents: [user], generationConfig: { responseSchema: schema } })),
    ).toMatch(/response_mime_type must be one of the following: \[application\/json, text\/x\.enum\]/);
    expect(
      generate('gemini-2.5-flash', {
        contents: [user],
        generationConfig: { responseSchema: schema, responseMimeType: 'application/json' },
      }),
    ).toBeNull();
  });

  it('refuses bad parts: no data, two data fields, non-object responses, data URLs as bytes, wrong roles', () => {
    expect(messageOf(generate('gemini-2.5-flash', { contents: [{ role: 'user', parts: [] }] }))).toBe(
      '* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n',
    );
    expect(messageOf(generate('gemini-2.5-flash', { contents: [{ role: 'user', parts: [{ thought: true }] }] }))).toBe(
      "* GenerateContentRequest.contents[0].parts[0].data: required oneof field 'data' must have one initialized field\n",
    );
    const textResponse = { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: 'sunny' } }] };
    expect(messageOf(generate('gemini-2.5-flash', { contents: [user, call(), textResponse], tools }))).toBe(
      'Invalid value at \'contents[2].parts[0].function_response.response\' (type.googleapis.com/google.protobuf.Struct), "sunny"',
    );
    const dataUrl = {
      role: 'user',
      parts: [{ inlineData: { mimeType: 'image/png', data: 'data:image/png;base64,iVBOR' } }],
    };
    expect(messageOf(generate('gemini-2.5-flash', { contents: [dataUrl] }))).toMatch(
      /^Invalid value at 'contents\[0\]\.parts\[0\]\.inline_data\.data' \(TYPE_BYTES\), Base64 decoding failed/,
    );
    expect(messageOf(generate('gemini-2.5-flash', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }))).toBe(
      'Please use a valid role: user, model.',
    );
  });

  it('needs as many function responses as the calls they answer', () => {
    const two = { role: 'model', parts: [call().parts[0], call().parts[0]] };
    expect(messageOf(generate('gemini-2.5-flash', { contents: [user, two, response], tools }))).toBe(
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    );
    const orphan = generate('gemini-2.5-flash', {
      contents: [user, { role: 'model', parts: [{ text: 'ok' }] }, response],
      tools,
    });
    expect(messageOf(orphan)).toMatch(/^Please ensure that the number of function response parts/);
  });

  it('needs a thought signature it issued on the first call of each step of the current turn (Gemini 3)', () => {
    const missing = generate('gemini-3-pro-preview', { contents: [user, call(), response], tools });
    expect(messageOf(missing)).toBe(
      'Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
    );
    const sig = thoughtSignatureFor('get_weather');
    expect(generate('gemini-3-pro-preview', { contents: [user, call(sig), response], tools })).toBeNull();
    expect(
      generate('gemini-3-flash-preview', { contents: [user, call(SKIP_THOUGHT_SIGNATURE), response], tools }),
    ).toBeNull();
    expect(
      messageOf(
        generate('gemini-3-pro-preview', { contents: [user, call(thoughtSignatureFor('other')), response], tools }),
      ),
    ).toBe('Corrupted thought signature.');
    // Parallel calls: only the first carries one. Earlier turns are not checked; 2.5 models check none.
    const parallel = { role: 'model', parts: [call(sig).parts[0], call().parts[0]] };
    const twoResponses = { role: 'user', parts: [response.parts[0], response.parts[0]] };
    expect(generate('gemini-3-pro-preview', { contents: [user, parallel, twoResponses], tools })).toBeNull();
    const earlier = [user, call(), response, { role: 'model', parts: [{ text: 'sunny' }] }, user];
    expect(generate('gemini-3-pro-preview', { contents: earlier, tools })).toBeNull();
    expect(generate('gemini-2.5-flash', { contents: [user, call(), response], tools })).toBeNull();
  });

  it('checks thinking settings against the model', () => {
    const cfg = (thinkingConfig: Record<string, unknown>) => ({
      contents: [user],
      generationConfig: { thinkingConfig },
    });
    expect(messageOf(generate('gemini-2.5-pro', cfg({ thinkingBudget: 0 })))).toBe(
      'Budget 0 is invalid. This model only works in thinking mode.',
    );
    expect(messageOf(generate('gemini-2.5-flash', cfg({ thinkingLevel: 'low' })))).toBe(
      'Thinking level is not supported for this model.',
    );
    expect(generate('gemini-3-pro-preview', cfg({ thinkingLevel: 'low', includeThoughts: true }))).toBeNull();
    expect(generate('gemini-2.5-flash', cfg({ thinkingBudget: -1 }))).toBeNull();
  });

  it('checks countTokens bodies too (contents, or a whole generateContentRequest with its model)', () => {
    const count = (body: Record<string, unknown>) =>
      validateGemini('/v1beta/models/gemini-2.5-flash:countTokens', {}, body);
    expect(count({ contents: [user] })).toBeNull();
    expect(count({ generateContentRequest: { model: 'models/gemini-2.5-flash', contents: [user], tools } })).toBeNull();
    expect(messageOf(count({ contents: [user], max_tokens: 5 }))).toBe(
      'Invalid JSON payload received. Unknown name "max_tokens": Cannot find field.',
    );
  });
});
