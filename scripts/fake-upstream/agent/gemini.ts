/*
 * The scripted agent on Gemini's generateContent: contents read into the brain's items (functionCall /
 * functionResponse paired in order, images as inlineData in the response's parts, beside it or in a later
 * user turn), the move written back as a candidate: a thought part when includeThoughts is asked, then a
 * functionCall signed with its thoughtSignature (strict/signatures.ts, checked when it comes back) or the
 * text; JSON, a JSON array for streamGenerateContent, or SSE with `alt=sse`.
 */
import type { ServerResponse } from 'node:http';
import { fakeNativePrompt, sendJson } from '../native-http.ts';
import { thoughtSignatureFor } from '../strict/signatures.ts';
import type { Image, Item, Json, Move, Turn } from './conversation.ts';

const get = (o: Json, camel: string): unknown => o[camel] ?? o[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];

const imageOf = (p: Json): Image | undefined => {
  const d = get(p, 'inlineData') as Json | undefined;
  return d ? { mime: String(get(d, 'mimeType')), data: String(d.data) } : undefined;
};

export function readGemini(body: Json): Turn {
  const items: Item[] = [];
  let calls = 0;
  let results = 0;
  for (const c of (body.contents ?? []) as Json[]) {
    for (const p of (c.parts ?? []) as Json[]) {
      const fc = get(p, 'functionCall') as Json | undefined;
      const fr = get(p, 'functionResponse') as Json | undefined;
      if (c.role === 'model') {
        if (fc) items.push({ kind: 'call', id: `g${++calls}`, name: String(fc.name), args: (fc.args ?? {}) as Json });
        else if (typeof p.text === 'string' && !p.thought) items.push({ kind: 'assistant', text: p.text });
        continue;
      }
      if (fr) {
        const inner = ((fr.parts ?? []) as Json[]).map(imageOf).filter((i) => !!i);
        items.push({ kind: 'result', id: `g${++results}`, text: JSON.stringify(fr.response ?? {}), images: inner });
      } else if (typeof p.text === 'string') items.push({ kind: 'user', text: p.text, images: [] });
      else {
        const image = imageOf(p);
        // An image beside a function response belongs to it (Gemini CLI sends read_file's picture so).
        const last = items.at(-1);
        if (image && last?.kind === 'result') last.images.push(image);
        else if (image) items.push({ kind: 'user', text: '', images: [image] });
      }
    }
  }
  const tools = ((body.tools ?? []) as Json[])
    .flatMap((t) => (get(t, 'functionDeclarations') ?? []) as Json[])
    .map((d) => ({
      name: String(d.name),
      schema: lowerTypes(get(d, 'parametersJsonSchema') ?? d.parameters ?? {}) as Json,
    }));
  const gen = (get(body, 'generationConfig') ?? {}) as Json;
  const thinking = (get(gen, 'thinkingConfig') ?? {}) as Json;
  const schema = (get(gen, 'responseJsonSchema') ?? get(gen, 'responseSchema')) as Json | undefined;
  return {
    items,
    tools,
    thinking: get(thinking, 'includeThoughts') === true,
    jsonSchema: get(gen, 'responseMimeType') === 'application/json' ? (schema ?? {}) : undefined,
  };
}

/** Gemini's OpenAPI types (`OBJECT`) as JSON Schema's (`object`), so the brain reads one schema language. */
function lowerTypes(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(lowerTypes);
  if (!s || typeof s !== 'object') return s;
  return Object.fromEntries(
    Object.entries(s as Json).map(([k, v]) => [
      k,
      k === 'type' && typeof v === 'string' ? v.toLowerCase() : lowerTypes(v),
    ]),
  );
}

export function answerGemini(res: ServerResponse, path: string, body: Json, turn: Turn, move: Move) {
  const model = decodeURIComponent(/models\/([^:]+):/.exec(path)?.[1] ?? 'gemini');
  const parts: Json[] = [];
  if (turn.thinking) parts.push({ text: move.thinking, thought: true });
  if (move.call)
    parts.push({
      functionCall: { name: move.call.name, args: move.call.args },
      thoughtSignature: thoughtSignatureFor(move.call.name),
    });
  else parts.push({ text: move.text ?? '' });
  const prompt = fakeNativePrompt(body.contents, get(body, 'systemInstruction'));
  const usageMetadata = {
    promptTokenCount: prompt,
    candidatesTokenCount: 12,
    thoughtsTokenCount: turn.thinking ? 8 : 0,
    totalTokenCount: prompt + 20,
  };
  const frame = (p: Json[], last: boolean) => ({
    candidates: [{ content: { role: 'model', parts: p }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    usageMetadata: last ? usageMetadata : { promptTokenCount: prompt },
    modelVersion: model,
    responseId: `agent-${Date.now()}`,
  });
  if (!path.includes(':streamGenerateContent')) return sendJson(res, 200, frame(parts, true));
  // One frame per part, as Gemini streams thoughts before the answer.
  const frames = parts.map((p, i) => frame([p], i === parts.length - 1));
  if (!path.includes('alt=sse')) return sendJson(res, 200, frames);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const f of frames) res.write(`data: ${JSON.stringify(f)}\r\n\r\n`);
  res.end();
}
