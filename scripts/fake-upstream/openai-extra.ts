import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { answerOpenAIImages, isImagesPath, type OpenAIImagesState } from './images/openai.ts';
import { answerResponses } from './openai-agent.ts';

const send = (res: ServerResponse, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** What the images API needs of a request beyond its JSON: the raw body (an edit is multipart) and the state. */
export interface ExtraImages {
  state: OpenAIImagesState;
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

/**
 * The newer OpenAI endpoints of the fake: /responses (JSON and the real SSE event
 * sequence), /moderations, /rerank (Jina/Cohere style with usage), /images/generations and /images/edits.
 * Returns false for any other path.
 */
export function handleExtra(
  path: string,
  body: Record<string, unknown>,
  model: string,
  res: ServerResponse,
  images?: ExtraImages,
): boolean {
  if (path === '/responses') {
    answerResponses(res, body, model);
    return true;
  }
  if (path === '/moderations') {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    send(res, {
      id: 'modr-fake',
      model,
      results: inputs.map(() => ({
        flagged: false,
        categories: { violence: false },
        category_scores: { violence: 0.001 },
      })),
    });
    return true;
  }
  if (path === '/rerank') {
    const docs = Array.isArray(body.documents) ? body.documents : [];
    const tokens = Math.ceil((String(body.query ?? '') + docs.map(String).join('')).length / 4);
    send(res, {
      model,
      results: docs.map((d, index) => ({ index, relevance_score: 1 - index / 10, document: { text: String(d) } })),
      usage: { total_tokens: tokens },
    });
    return true;
  }
  if (path === '/audio/speech') {
    const audio = Buffer.from(`ID3fake-audio:${String(body.input ?? '')}`);
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': audio.length });
    res.end(audio);
    return true;
  }
  // Multipart uploads (the fake does not parse them): fixed answers in the real shapes.
  if (path === '/audio/transcriptions' || path === '/audio/translations') {
    send(res, { text: 'hello from the audio file' });
    return true;
  }
  if (images && isImagesPath(path)) {
    // OpenAI's images API as the strict images fake answers it (images/openai.ts), for any model name.
    void answerOpenAIImages(images.state, path, images.headers, images.raw, res);
    return true;
  }
  return false;
}
