import type { IncomingMessage, ServerResponse } from 'node:http';

/*
 * The Veo fakes' video file: a few KB that a player and `file` recognise as MP4 (an `ftyp` box
 * first, then a `free` box), filled with bytes derived from the job id so a test can tell one
 * job's file from another's and check that a range is the right slice.
 */

function box(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
}

/** A small MP4 for one job: ftyp(isom) + free(4 KB of id-derived bytes). */
export function fakeMp4(id: string): Buffer {
  const ftyp = box(
    'ftyp',
    Buffer.concat([
      Buffer.from('isom', 'latin1'),
      Buffer.from([0, 0, 2, 0]),
      Buffer.from('isomiso2avc1mp41', 'latin1'),
    ]),
  );
  const fill = Buffer.alloc(4096);
  for (let i = 0; i < fill.length; i++) fill[i] = (id.charCodeAt(i % id.length) + i) & 0xff;
  return Buffer.concat([ftyp, box('free', fill)]);
}

/**
 * Sends `data` honouring a single `Range: bytes=a-b` (206 + Content-Range), as Google's download
 * and GCS endpoints do; an unsatisfiable range is a 416 with `Content-Range: bytes *\/len`.
 */
export function sendRanged(req: IncomingMessage, res: ServerResponse, data: Buffer, mime = 'video/mp4'): void {
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
  const headers = { 'content-type': mime, 'accept-ranges': 'bytes' };
  if (!range || (range[1] === '' && range[2] === '')) {
    res.writeHead(200, { ...headers, 'content-length': data.length });
    res.end(data);
    return;
  }
  let start: number;
  let end: number;
  if (range[1] === '') {
    start = Math.max(0, data.length - Number(range[2]));
    end = data.length - 1;
  } else {
    start = Number(range[1]);
    end = range[2] === '' ? data.length - 1 : Math.min(Number(range[2]), data.length - 1);
  }
  if (start >= data.length || start > end) {
    res.writeHead(416, { 'content-range': `bytes */${data.length}` });
    res.end();
    return;
  }
  res.writeHead(206, {
    ...headers,
    'content-length': end - start + 1,
    'content-range': `bytes ${start}-${end}/${data.length}`,
  });
  res.end(data.subarray(start, end + 1));
}
