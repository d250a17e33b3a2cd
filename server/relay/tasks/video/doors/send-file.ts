import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { VideoFile } from '../types.ts';

/** Headers of a file a player needs (seeking included); nothing else of the upstream's. */
const FILE_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];

/** Streams a video file to the client; a private file of one user, so never kept by a shared cache. */
export function sendVideoFile(reply: FastifyReply, file: VideoFile) {
  reply.status(file.status);
  for (const name of FILE_HEADERS) if (file.headers[name]) reply.header(name, file.headers[name]);
  reply.header('cache-control', 'private, max-age=300');
  return reply.send(file.body instanceof Readable ? file.body : Readable.from(file.body));
}
