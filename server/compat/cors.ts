import type { FastifyReply } from 'fastify';

/**
 * The key lookups (GET /api/log/token, GET /api/usage/token/) are meant for other sites' "query my
 * key" pages, so only they open CORS, as new-api does; the rest of /api sends no CORS headers.
 */
export function allowAnyOrigin(reply: FastifyReply) {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-allow-methods', 'GET, OPTIONS');
  reply.header('access-control-allow-headers', '*');
}
