import { z } from 'zod';

type Part = {
  text?: string;
  thought?: boolean;
  inlineData?: { mimeType?: string; data?: string };
  fileData?: { mimeType?: string; fileUri?: string };
  functionCall?: { name?: string; args?: unknown; id?: string };
  functionResponse?: { name?: string; response?: unknown; id?: string };
};

/** The generateContent body as far as the gateway reads it; every other field passes through. */
export const geminiBody = z.looseObject({
  contents: z.array(z.looseObject({ role: z.string().optional(), parts: z.array(z.looseObject({})).optional() }), {
    message: 'contents is required',
  }),
  systemInstruction: z.unknown().optional(),
  generationConfig: z.looseObject({}).optional(),
  tools: z.array(z.looseObject({})).optional(),
});

const textOf = (parts: Part[] | undefined) => (parts ?? []).map((p) => (p.thought ? '' : (p.text ?? ''))).join('');

/**
 * Gemini generateContent body -> canonical OpenAI chat body (for channels of
 * another protocol and for pricing): systemInstruction to a system message,
 * `model` turns to assistant, inlineData to data URLs, functionCall to tool_calls
 * (ids made up and matched to the following functionResponse by name).
 */
export function geminiToOpenAI(
  model: string,
  stream: boolean,
  body: z.infer<typeof geminiBody>,
): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [];
  const system = textOf((body.systemInstruction as { parts?: Part[] } | undefined)?.parts);
  if (system) messages.push({ role: 'system', content: system });
  const pending = new Map<string, string[]>();
  let n = 0;
  for (const c of body.contents) {
    const parts = (c.parts ?? []) as Part[];
    const content: Record<string, unknown>[] = [];
    const calls: Record<string, unknown>[] = [];
    for (const p of parts) {
      if (p.functionCall) {
        const id = p.functionCall.id ?? `call_${n++}`;
        pending.set(p.functionCall.name ?? '', [...(pending.get(p.functionCall.name ?? '') ?? []), id]);
        calls.push({
          id,
          type: 'function',
          function: { name: p.functionCall.name, arguments: JSON.stringify(p.functionCall.args ?? {}) },
        });
      } else if (p.functionResponse) {
        const ids = pending.get(p.functionResponse.name ?? '') ?? [];
        const id = p.functionResponse.id ?? ids.shift() ?? `call_${n++}`;
        messages.push({
          role: 'tool',
          tool_call_id: id,
          name: p.functionResponse.name,
          content: JSON.stringify(p.functionResponse.response ?? {}),
        });
      } else if (p.inlineData)
        content.push({
          type: 'image_url',
          image_url: { url: `data:${p.inlineData.mimeType};base64,${p.inlineData.data}` },
        });
      else if (p.fileData) content.push({ type: 'image_url', image_url: { url: p.fileData.fileUri } });
      else if (typeof p.text === 'string' && !p.thought) content.push({ type: 'text', text: p.text });
    }
    const onlyText = content.every((x) => x.type === 'text');
    const value = onlyText ? content.map((x) => x.text).join('') : content;
    if (c.role === 'model') {
      if (content.length || calls.length)
        messages.push({
          role: 'assistant',
          content: onlyText && value === '' ? null : value,
          ...(calls.length ? { tool_calls: calls } : {}),
        });
    } else if (content.length) messages.push({ role: 'user', content: value });
  }
  const gen = (body.generationConfig ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { model, messages };
  if (typeof gen.maxOutputTokens === 'number') out.max_tokens = gen.maxOutputTokens;
  if (typeof gen.temperature === 'number') out.temperature = gen.temperature;
  if (typeof gen.topP === 'number') out.top_p = gen.topP;
  if (Array.isArray(gen.stopSequences)) out.stop = gen.stopSequences;
  if (gen.responseMimeType === 'application/json')
    out.response_format = gen.responseSchema
      ? { type: 'json_schema', json_schema: { name: 'response', schema: gen.responseSchema } }
      : { type: 'json_object' };
  if (stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  const decls = (body.tools ?? []).flatMap(
    (t) => (t.functionDeclarations ?? []) as { name?: string; description?: string; parameters?: unknown }[],
  );
  if (decls.length)
    out.tools = decls.map((d) => ({
      type: 'function',
      function: {
        name: d.name,
        description: d.description,
        parameters: d.parameters ?? { type: 'object', properties: {} },
      },
    }));
  const fc = (
    body.toolConfig as { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } } | undefined
  )?.functionCallingConfig;
  if (fc?.mode === 'NONE') out.tool_choice = 'none';
  else if (fc?.mode === 'ANY')
    out.tool_choice =
      fc.allowedFunctionNames?.length === 1
        ? { type: 'function', function: { name: fc.allowedFunctionNames[0] } }
        : 'required';
  return out;
}
