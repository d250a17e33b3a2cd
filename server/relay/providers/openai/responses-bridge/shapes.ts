import { randomBytes } from 'node:crypto';
import type { CanonicalPart } from '../../../canonical/types.ts';
import type { RelayError } from '../../../errors.ts';

/*
 * OpenAI Responses items <-> canonical chat messages: the one mapping both directions of the
 * bridge use. The Responses front door reads a client's `input` with itemsToMessages() and writes
 * its answer with assistantToItems(); the reverse bridge (a chat client on a Responses-only model)
 * writes the upstream's `input` with messagesToItems() and reads its `output` with itemsToMessages().
 * The mapping's parts: items-to-messages.ts, messages-to-items.ts, tools-and-format.ts (tools,
 * tool_choice, text.format) and usage.ts; this file holds the shapes and helpers they share.
 */

/** A content part of a Responses message or tool output, as far as the mapping reads it. */
export interface ResponsesPart {
  type?: string;
  text?: string;
  refusal?: string;
  image_url?: string | null;
  detail?: string;
  file_id?: string | null;
  file_data?: string;
  file_url?: string;
  filename?: string;
  input_audio?: { data: string; format: string };
}

/** One Responses item (input or output), as far as the mapping reads it. */
export interface ResponsesItem {
  type?: string;
  id?: string;
  role?: string;
  status?: string;
  content?: string | ResponsesPart[] | null;
  call_id?: string;
  name?: string;
  /** The namespace of a namespaced tool's call (`name` is then the tool's own name). */
  namespace?: string;
  arguments?: string;
  /** A custom tool's free-form input. */
  input?: string;
  output?: string | ResponsesPart[];
  summary?: { type?: string; text?: string }[];
  encrypted_content?: string | null;
}

/** A Responses function tool (flat: no `function` wrapper) or a built-in tool. */
export interface ResponsesTool {
  type?: string;
  name?: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
  format?: { type?: string; syntax?: string; definition?: string };
}

export const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

/** Where a conversion failure goes: collected (the door defers it to converted channels) or thrown. */
export type Refuse = (err: RelayError) => void;
export const throwRefusal: Refuse = (err) => {
  throw err;
};

export const textOfContent = (c: string | CanonicalPart[]): string =>
  typeof c === 'string' ? c : c.map((p) => (p.type === 'text' ? p.text : '')).join('');
