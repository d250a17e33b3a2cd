import { crc32, deflateSync } from 'node:zlib';

/*
 * Real images of any size for tests, made on the spot (no binary fixtures): a black grayscale PNG,
 * and a JPEG whose frame header comes after large metadata segments, as camera JPEGs have.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid `width` x `height` PNG (8-bit grayscale, all black). */
export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // bit depth 8, grayscale, deflate, no filter method, no interlace
  // Each row: filter byte 0 and `width` zero pixels.
  const idat = deflateSync(Buffer.alloc((width + 1) * height));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A JPEG's markers up to its baseline frame header (what size readers look at): the JFIF
 * segment, `appSegments` APP segments of 64 KiB each, the frame header; not decodable as a picture.
 */
export function jpegHeader(width: number, height: number, appSegments = 0): Buffer {
  const jfif = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0, 0];
  const parts: Buffer[] = [Buffer.from([0xff, 0xd8, ...jfif])];
  for (let i = 0; i < appSegments; i++) {
    const seg = Buffer.alloc(2 + 0xffff);
    seg.set([0xff, 0xe2 + (i % 12), 0xff, 0xff]);
    parts.push(seg);
  }
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  parts.push(sof, Buffer.from([0xff, 0xd9]));
  return Buffer.concat(parts);
}

export const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
