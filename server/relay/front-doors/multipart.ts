import { randomBytes } from 'node:crypto';
import { relayRefusal } from '../errors.ts';

/** One part of a multipart/form-data body. */
export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The field under which a multipart request's parts travel through the relay (never serialised as JSON). */
export const PARTS = '_multipart';

/**
 * Splits a multipart/form-data body (already buffered, size-capped by the route's
 * body limit). Only what OpenAI's upload endpoints send is supported: named
 * fields and files, no nested multipart.
 */
export function parseMultipart(body: Buffer, contentType: string): FormPart[] {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) throw relayRefusal(400, 'relay.multipart_no_boundary', 'invalid_request');
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: FormPart[] = [];
  let pos = body.indexOf(delimiter);
  while (pos >= 0) {
    const start = pos + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const chunk = body.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next one
    const headerEnd = chunk.indexOf('\r\n\r\n');
    if (headerEnd >= 0) {
      const head = chunk.subarray(0, headerEnd).toString('utf8');
      const name = /name="([^"]*)"/i.exec(head)?.[1];
      if (name !== undefined)
        parts.push({
          name,
          filename: /filename="([^"]*)"/i.exec(head)?.[1],
          contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim(),
          data: chunk.subarray(headerEnd + 4),
        });
    }
    pos = next;
  }
  return parts;
}

/** Rebuilds a multipart body, with fields replaced (e.g. `model` after the channel's mapping). */
export function buildMultipart(
  parts: FormPart[],
  fields: Record<string, string>,
): { body: Buffer; contentType: string } {
  const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const data = p.filename === undefined && p.name in fields ? Buffer.from(fields[p.name]) : p.data;
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    if (p.contentType) head += `\r\nContent-Type: ${p.contentType}`;
    chunks.push(Buffer.from(`${head}\r\n\r\n`), data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The text fields of a multipart body as a relay body (numbers parsed), parts kept under PARTS. */
export function multipartToBody(parts: FormPart[]): Record<string, unknown> {
  const out: Record<string, unknown> = { [PARTS]: parts };
  for (const p of parts) {
    if (p.filename !== undefined) continue;
    const v = p.data.toString('utf8');
    out[p.name] = /^\d+$/.test(v) && p.name === 'n' ? Number(v) : v;
  }
  return out;
}
