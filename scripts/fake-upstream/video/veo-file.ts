import { mp4Box } from './shared.ts';

/*
 * The Veo fakes' video file: a few KB that a player and `file` recognise as MP4 (an `ftyp` box
 * first, then a `free` box), filled with bytes derived from the job id so a test can tell one
 * job's file from another's and check that a range is the right slice.
 */

/** A small MP4 for one job: ftyp(isom) + free(4 KB of id-derived bytes). */
export function fakeMp4(id: string): Buffer {
  const ftyp = mp4Box(
    'ftyp',
    Buffer.concat([
      Buffer.from('isom', 'latin1'),
      Buffer.from([0, 0, 2, 0]),
      Buffer.from('isomiso2avc1mp41', 'latin1'),
    ]),
  );
  const fill = Buffer.alloc(4096);
  for (let i = 0; i < fill.length; i++) fill[i] = (id.charCodeAt(i % id.length) + i) & 0xff;
  return Buffer.concat([ftyp, mp4Box('free', fill)]);
}
