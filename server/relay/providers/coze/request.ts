import { refusal } from '../../errors.ts';
import { contentText } from '../shared/text-answer.ts';

/*
 * The canonical conversation as Coze v3 `additional_messages`. Coze has user and assistant turns only
 * (the bot's persona is its own prompt): system and developer turns go as user turns, a tool result
 * as a user turn quoting it. A user turn with pictures is an `object_string`: the JSON text of
 * `[{type:"text",text},{type:"image",file_url}]`. Coze takes pictures by URL or by an uploaded file
 * id; a data URL is refused (it would need Coze's file upload first).
 */

export interface CozeMessage {
  role: 'user' | 'assistant';
  type?: 'question' | 'answer';
  content: string;
  content_type: 'text' | 'object_string';
}

interface Part {
  type?: string;
  text?: unknown;
  image_url?: { url?: unknown } | string;
}

function userContent(content: unknown): Pick<CozeMessage, 'content' | 'content_type'> {
  const parts = Array.isArray(content) ? (content as Part[]) : [];
  if (!parts.some((p) => p?.type === 'image_url')) return { content: contentText(content), content_type: 'text' };
  const objects = parts.flatMap((p): Record<string, string>[] => {
    if (p?.type === 'text' && typeof p.text === 'string') return [{ type: 'text', text: p.text }];
    if (p?.type !== 'image_url') return [];
    const url = typeof p.image_url === 'string' ? p.image_url : p.image_url?.url;
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url))
      throw refusal(
        400,
        'Coze takes pictures by http(s) URL only',
        'Coze 只接受 http(s) 地址的图片',
        'invalid_image_url',
      );
    return [{ type: 'image', file_url: url }];
  });
  return { content: JSON.stringify(objects), content_type: 'object_string' };
}

/** Coze's additional_messages for a canonical `messages` array. */
export function cozeMessages(messages: unknown): CozeMessage[] {
  const list = Array.isArray(messages) ? (messages as { role?: string; content?: unknown }[]) : [];
  return list.map((m): CozeMessage => {
    if (m.role === 'assistant')
      return { role: 'assistant', type: 'answer', content: contentText(m.content), content_type: 'text' };
    if (m.role === 'tool')
      return { role: 'user', content: `Tool result: ${contentText(m.content)}`, content_type: 'text' };
    if (m.role === 'system' || m.role === 'developer')
      return { role: 'user', content: contentText(m.content), content_type: 'text' };
    return { role: 'user', ...userContent(m.content) };
  });
}
