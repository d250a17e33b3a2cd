import { crc32, deflateSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
export { jsonObjectOf, listenBuffered } from '../video/shared.ts';

/*
 * What every image fake shares (issue 44): real pictures (a PNG of the asked size that Chromium shows
 * and image-size reads, each one different so a test can tell them apart), and a strict multipart
 * reader (the platform's own form-data parser, as a real API's framework would use).
 */

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A solid-colour RGB PNG of `width` x `height` whose colour comes from `label` (so two pictures differ),
 * with the label in a tEXt chunk (a test reads which request made it).
 */
export function fakePng(width = 64, height = 64, label = 'image'): Buffer {
  let h = 0;
  for (const ch of label) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const rgb = [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('tEXt', Buffer.from(`label\0${label}`, 'latin1')),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The label a fakePng carries (its tEXt chunk); undefined for any other bytes. */
export function labelOf(png: Buffer): string | undefined {
  const at = png.indexOf('tEXtlabel\0', 0, 'latin1');
  if (at < 0) return undefined;
  const len = png.readUInt32BE(at - 4);
  return png.subarray(at + 10, at + 4 + len).toString('latin1');
}

/** One multipart field or file as the fake read it. */
export interface FakeFormEntry {
  name: string;
  value?: string;
  file?: { filename: string; type: string; data: Buffer };
}

/**
 * A multipart/form-data body read by the platform's parser (undici's, behind `Request.formData`): a
 * malformed body throws, as a real API answers 400.
 */
export async function readForm(raw: Buffer, contentType: string | undefined): Promise<FakeFormEntry[]> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) throw new Error('not multipart/form-data');
  const form = await new Request('http://fake.invalid/', {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Uint8Array(raw),
  }).formData();
  const out: FakeFormEntry[] = [];
  for (const [name, v] of form.entries()) {
    if (typeof v === 'string') out.push({ name, value: v });
    else out.push({ name, file: { filename: v.name, type: v.type, data: Buffer.from(await v.arrayBuffer()) } });
  }
  return out;
}

/**
 * The public delivery links of a fake whose API answers URLs (CogView, SiliconFlow, xAI): pictures kept
 * under `/<dir>/<id>.png` on the fake's own origin (set once it listens) and served to a GET, 404 otherwise.
 */
export function pictureHost(dir: string) {
  const pictures = new Map<string, Buffer>();
  const file = new RegExp(`^/${dir}/([\\w-]+)\\.png$`);
  let origin = '';
  return {
    listening(url: string) {
      origin = url;
    },
    /** Keeps a picture; answers its link. */
    keep(id: string, png: Buffer): string {
      pictures.set(id, png);
      return `${origin}/${dir}/${id}.png`;
    },
    /** Serves a GET of a kept picture's path; false when the request is not one. */
    serve(method: string | undefined, path: string, res: ServerResponse): boolean {
      const m = file.exec(path);
      if (!m || method !== 'GET') return false;
      const png = pictures.get(m[1]);
      res.writeHead(png ? 200 : 404, { 'content-type': png ? 'image/png' : 'text/plain' });
      res.end(png ?? 'Not Found');
      return true;
    },
  };
}
