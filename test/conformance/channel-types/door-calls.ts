/*
 * What the channel-type suite asks through each front door, with that door's official SDK: one plain
 * answer, the same answer streamed, and an answer that fails upstream. Each call returns what the
 * SDK gave its user: the text, the usage it read, and for streams how many text pieces arrived.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { DoorId } from '../matrix.ts';

export interface Asked {
  text: string;
  /** Usage as the SDK reports it to its user (prompt and completion tokens). */
  usage?: { prompt: number; completion: number };
  /** Text deltas a stream delivered (1 for a plain answer). */
  pieces: number;
}

export interface DoorClient {
  text(model: string): Promise<Asked>;
  stream(model: string): Promise<Asked>;
}

const QUESTION = 'Say the five words.';

/** The door's SDK pointed at the gateway (`origin` is `http://127.0.0.1:<port>`), for a user's key. */
export function doorClient(door: DoorId, origin: string, key: string): DoorClient {
  switch (door) {
    case 'openai-chat': {
      const sdk = new OpenAI({ apiKey: key, baseURL: `${origin}/v1`, maxRetries: 0 });
      return {
        async text(model) {
          const r = await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: QUESTION }] });
          const u = r.usage;
          return {
            text: r.choices[0].message.content ?? '',
            usage: u && { prompt: u.prompt_tokens, completion: u.completion_tokens },
            pieces: 1,
          };
        },
        async stream(model) {
          const s = sdk.chat.completions.stream({
            model,
            messages: [{ role: 'user', content: QUESTION }],
            stream: true,
            stream_options: { include_usage: true },
          });
          let pieces = 0;
          s.on('content', () => pieces++);
          const final = await s.finalChatCompletion();
          const u = final.usage;
          return {
            text: final.choices[0].message.content ?? '',
            usage: u && { prompt: u.prompt_tokens, completion: u.completion_tokens },
            pieces,
          };
        },
      };
    }
    case 'responses': {
      const sdk = new OpenAI({ apiKey: key, baseURL: `${origin}/v1`, maxRetries: 0 });
      const usageOf = (u: OpenAI.Responses.ResponseUsage | undefined) =>
        u && { prompt: u.input_tokens, completion: u.output_tokens };
      return {
        async text(model) {
          const r = await sdk.responses.create({ model, input: QUESTION });
          return { text: r.output_text, usage: usageOf(r.usage), pieces: 1 };
        },
        async stream(model) {
          const s = sdk.responses.stream({ model, input: QUESTION });
          let pieces = 0;
          s.on('response.output_text.delta', () => pieces++);
          const final = await s.finalResponse();
          return { text: final.output_text, usage: usageOf(final.usage), pieces };
        },
      };
    }
    case 'anthropic': {
      const sdk = new Anthropic({ apiKey: key, baseURL: origin, maxRetries: 0 });
      const body = (model: string) => ({
        model,
        max_tokens: 256,
        messages: [{ role: 'user' as const, content: QUESTION }],
      });
      const textOf = (m: Anthropic.Message) => m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      return {
        async text(model) {
          const m = await sdk.messages.create(body(model));
          return {
            text: textOf(m),
            usage: { prompt: m.usage.input_tokens, completion: m.usage.output_tokens },
            pieces: 1,
          };
        },
        async stream(model) {
          const s = sdk.messages.stream(body(model));
          let pieces = 0;
          s.on('text', () => pieces++);
          const m = await s.finalMessage();
          return {
            text: textOf(m),
            usage: { prompt: m.usage.input_tokens, completion: m.usage.output_tokens },
            pieces,
          };
        },
      };
    }
    case 'gemini': {
      const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: origin } });
      type Meta = { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number };
      const usageOf = (m: Meta | undefined) =>
        m && {
          prompt: m.promptTokenCount ?? 0,
          completion: (m.candidatesTokenCount ?? 0) + (m.thoughtsTokenCount ?? 0),
        };
      return {
        async text(model) {
          const r = await ai.models.generateContent({ model, contents: QUESTION });
          return { text: r.text ?? '', usage: usageOf(r.usageMetadata), pieces: 1 };
        },
        async stream(model) {
          let text = '';
          let pieces = 0;
          let meta: Meta | undefined;
          for await (const ch of await ai.models.generateContentStream({ model, contents: QUESTION })) {
            if (ch.text) {
              text += ch.text;
              pieces++;
            }
            meta = ch.usageMetadata ?? meta;
          }
          return { text, usage: usageOf(meta), pieces };
        },
      };
    }
  }
}
