import { expect } from 'vitest';
import type { OptionReader } from '../../../../../shared/options.ts';
import type { ChannelRow } from '../../../../db/types.ts';
import { parseChannel } from '../../../channel-config.ts';
import { RelayError } from '../../../errors.ts';
import type { VideoCall, VideoFile } from '../types.ts';

/*
 * What the video adapter tests share (issue 40), beside harness.ts: those drive one adapter
 * against its fake without a gateway, so this module starts no app. A call carries a channel parsed
 * from a real row, as the core hands it over.
 */

const noOptions = (() => undefined) as unknown as OptionReader;

/** The call the core would make on channel #7 of `type` at `baseUrl` with `key`, for `upstreamModel`. */
export function adapterCall(type: number, baseUrl: string, key: string, upstreamModel: string, other = ''): VideoCall {
  const row = { id: 7, type, name: 'video', key, base_url: baseUrl, auto_ban: 1, other, setting: null };
  return { channel: parseChannel(row as unknown as ChannelRow), key, upstreamModel, options: noOptions };
}

/** A file answer's whole body. */
export async function bytesOf(file: VideoFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of file.body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** The RelayError `p` rejects with (the test fails when it resolves or throws anything else). */
export async function refusedWith(p: Promise<unknown>): Promise<RelayError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RelayError);
  return err as RelayError;
}
