import type { FakeUpstream } from './server.ts';
import type { StrictValidator } from './strict/types.ts';
import { fakeNativePrompt, nativeBehaviour, PIECES, sendJson, startRecordingServer } from './native-http.ts';

/** Gemini's real error bodies (google.rpc.Status) for the statuses the fake can produce. */
export function geminiFailure(status: number) {
  const [s, message] =
    status === 400
      ? ['INVALID_ARGUMENT', 'Request contains an invalid argument.']
      : status === 403
        ? ['PERMISSION_DENIED', 'Permission denied: Consumer has been suspended.']
        : status === 429
          ? ['RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).']
          : status === 503
            ? ['UNAVAILABLE', 'The model is overloaded. Please try again later.']
            : ['INTERNAL', 'An internal error has occurred.'];
  return { error: { code: status, message, status: s } };
}

type Content = { role?: string; parts?: { text?: string; functionResponse?: unknown }[] };

/**
 * A fake Gemini API: `POST /{version}/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse`, `:countTokens`, `GET /v1beta/models`. A functionCall answers
 * when tools are offered and the last turn is not a functionResponse; a thought
 * part when thinkingConfig.includeThoughts is set. Candidates tokens: one per
 * text piece (3 thought tokens, 6 for a call).
 */
export function startFakeGemini(port = 0, opts: { validate?: StrictValidator } = {}): Promise<FakeUpstream> {
  return startRecordingServer(async (req, res, body) => {
    // Strict mode (strict/index.ts): what the real API refuses is refused before any answer.
    const refusal = opts.validate?.(req.url ?? '', req.headers, body);
    if (refusal) return sendJson(res, refusal.status, refusal.body);
    const url = new URL(req.url ?? '/', 'http://x');
    const key = String(req.headers['x-goog-api-key'] ?? url.searchParams.get('key') ?? '');
    if (req.method === 'GET' && /\/models$/.test(url.pathname))
      return sendJson(res, 200, {
        models: [
          {
            name: 'models/gemini-2.5-flash',
            displayName: 'Gemini 2.5 Flash',
            supportedGenerationMethods: ['generateContent'],
          },
        ],
      });
    const m = /^\/(v1beta|v1|v1alpha)\/models\/([^:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(
      url.pathname,
    );
    if (!m)
      return sendJson(res, 404, { error: { code: 404, message: `Not found: ${url.pathname}`, status: 'NOT_FOUND' } });
    const model = decodeURIComponent(m[2]);
    const b = nativeBehaviour(model, key);
    if (b.badKey)
      return sendJson(res, 400, {
        error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
      });
    if (b.failStatus) return sendJson(res, b.failStatus, geminiFailure(b.failStatus));
    if (m[3] === 'countTokens') {
      // Both forms of the count body; the same deterministic count the answers' usage reports.
      const r = (body.generateContentRequest ?? body) as { contents?: unknown; systemInstruction?: unknown };
      return sendJson(res, 200, { totalTokens: fakeNativePrompt(r.contents, r.systemInstruction) });
    }
    const contents = (body.contents ?? []) as Content[];
    const lastIsResponse = (contents.at(-1)?.parts ?? []).some((p) => p.functionResponse);
    const decls = ((body.tools ?? []) as { functionDeclarations?: { name?: string }[] }[]).flatMap(
      (t) => t.functionDeclarations ?? [],
    );
    const gen = (body.generationConfig ?? {}) as {
      maxOutputTokens?: number;
      thinkingConfig?: { includeThoughts?: boolean };
    };
    const parts: Record<string, unknown>[] = [];
    let thoughts = 0;
    let output: number;
    let finish = 'STOP';
    if (gen.thinkingConfig?.includeThoughts) {
      parts.push({ text: 'Let me think.', thought: true });
      thoughts = 3;
    }
    if (decls.length > 0 && !lastIsResponse) {
      parts.push({ functionCall: { name: decls[0].name, args: { location: 'Paris' } } });
      output = 6;
    } else {
      const n = Math.min(PIECES.length, gen.maxOutputTokens ?? PIECES.length);
      for (const p of PIECES.slice(0, n)) parts.push({ text: p });
      output = n;
      if (n < PIECES.length) finish = 'MAX_TOKENS';
    }
    const prompt = fakeNativePrompt(contents, body.systemInstruction) + b.cacheRead;
    const usageMetadata = {
      promptTokenCount: prompt,
      candidatesTokenCount: output,
      totalTokenCount: prompt + output + thoughts,
      ...(b.cacheRead ? { cachedContentTokenCount: b.cacheRead } : {}),
      ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
    };
    const answer = (ps: unknown[], last: boolean) => ({
      candidates: [{ content: { role: 'model', parts: ps }, index: 0, ...(last ? { finishReason: finish } : {}) }],
      ...(last ? { usageMetadata } : { usageMetadata: { promptTokenCount: prompt } }),
      modelVersion: model,
      responseId: 'fake-resp-1',
    });
    if (m[3] === 'generateContent') return sendJson(res, 200, { ...answer(mergeText(parts), true) });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    parts.forEach((p, i) => res.write(`data: ${JSON.stringify(answer([p], i === parts.length - 1))}\r\n\r\n`));
    res.end();
  }, port);
}

/** Non-streamed answers join adjacent plain text parts, as Gemini does. */
function mergeText(parts: Record<string, unknown>[]) {
  const out: Record<string, unknown>[] = [];
  for (const p of parts) {
    const last = out.at(-1);
    if (last && typeof last.text === 'string' && typeof p.text === 'string' && !last.thought && !p.thought)
      last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}
