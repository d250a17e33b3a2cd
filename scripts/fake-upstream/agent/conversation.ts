/*
 * The scripted agent's view of a request, whatever the dialect: the conversation as items (what the user
 * said, the calls the model made, the results that came back, with any images), the tools the client
 * declared, and whether the client asked for thinking or for JSON. Each dialect's reader (dialects/*.ts)
 * builds it; the brain (brain.ts) decides the next move from it alone, as a model does.
 */

export type Json = Record<string, unknown>;

export interface Image {
  mime: string;
  /** base64 of the image's bytes. */
  data: string;
}

export type Item =
  | { kind: 'user'; text: string; images: Image[] }
  | { kind: 'assistant'; text: string }
  | { kind: 'call'; id: string; name: string; args: Json }
  | { kind: 'result'; id: string; text: string; images: Image[] };

export interface ToolSpec {
  name: string;
  /** The JSON Schema of its arguments (`properties`, `required`), as declared. */
  schema: Json;
}

export interface Turn {
  items: Item[];
  tools: ToolSpec[];
  /** The client asked for reasoning (thinking config, reasoning effort or summary, includeThoughts). */
  thinking: boolean;
  /** The schema of a JSON answer the client asked for (response_format, responseSchema...), if any. */
  jsonSchema?: Json;
}

/** The brain's next move: thoughts, then either one tool call or the answer text. */
export interface Move {
  thinking: string;
  call?: { name: string; args: Json };
  text?: string;
}

/** The text parts of a content value in any dialect (string, or parts with `text`). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) => (typeof p === 'string' ? p : p && typeof p === 'object' ? textOf((p as Json).text) : ''))
      .filter(Boolean)
      .join('\n');
  return '';
}

/** A `data:<mime>;base64,<data>` URL as an image, else undefined. */
export function imageOfDataUrl(url: unknown): Image | undefined {
  const m = typeof url === 'string' ? /^data:([^;,]+);base64,(.+)$/s.exec(url) : null;
  return m ? { mime: m[1], data: m[2] } : undefined;
}

/** Width and height of a PNG (from its IHDR chunk), or undefined when the bytes are not a PNG. */
export function pngSize(base64: string): { width: number; height: number } | undefined {
  const b = Buffer.from(base64, 'base64');
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** Parses a tool call's JSON arguments; a string that is not JSON becomes `{}` (the brain then sees no path). */
export function parseArgs(args: unknown): Json {
  if (args && typeof args === 'object' && !Array.isArray(args)) return args as Json;
  try {
    const v = JSON.parse(String(args ?? '{}')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
  } catch {
    return {};
  }
}

/** A value matching a JSON Schema, as small as it gets (enums take their first value), for JSON answers. */
export function sampleOf(schema: unknown): unknown {
  const s = (schema && typeof schema === 'object' ? schema : {}) as Json;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (Array.isArray(s.anyOf) && s.anyOf.length) return sampleOf(s.anyOf[0]);
  const type = String(Array.isArray(s.type) ? s.type[0] : (s.type ?? (s.properties ? 'object' : 'string')));
  switch (type.toLowerCase()) {
    case 'object':
      return Object.fromEntries(Object.entries((s.properties ?? {}) as Json).map(([k, v]) => [k, sampleOf(v)]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'ok';
  }
}
