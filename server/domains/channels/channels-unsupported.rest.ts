import type { FastifyInstance } from 'fastify';
import type { ServerMessageCode } from '../../../shared/server-messages.ts';
import { notAvailable } from '../../compat/not-available.ts';
import { restRoute } from '../../compat/route.ts';
import type { AppDeps } from '../../context.ts';

/*
 * Channel tools of today's new-api console that Switchyard does not offer: Codex OAuth credentials
 * (Switchyard's Codex-style channels take an API key), model management on an Ollama server, and
 * the upstream model-update detector. Each answers a sentence saying so, in the envelope.
 */
const unsupported: [method: 'GET' | 'POST' | 'DELETE', url: string, message: ServerMessageCode][] = [
  ['POST', '/api/channel/codex/oauth/start', 'compat.codex_unavailable'],
  ['POST', '/api/channel/codex/oauth/complete', 'compat.codex_unavailable'],
  ['POST', '/api/channel/:id/codex/oauth/start', 'compat.codex_unavailable'],
  ['POST', '/api/channel/:id/codex/oauth/complete', 'compat.codex_unavailable'],
  ['POST', '/api/channel/:id/codex/refresh', 'compat.codex_unavailable'],
  ['GET', '/api/channel/:id/codex/usage', 'compat.codex_unavailable'],
  ['POST', '/api/channel/ollama/pull', 'compat.ollama_unavailable'],
  ['POST', '/api/channel/ollama/pull/stream', 'compat.ollama_unavailable'],
  ['DELETE', '/api/channel/ollama/delete', 'compat.ollama_unavailable'],
  ['GET', '/api/channel/ollama/version/:id', 'compat.ollama_unavailable'],
  ['POST', '/api/channel/upstream_updates/apply', 'compat.upstream_updates_unavailable'],
  ['POST', '/api/channel/upstream_updates/apply_all', 'compat.upstream_updates_unavailable'],
  ['POST', '/api/channel/upstream_updates/detect', 'compat.upstream_updates_unavailable'],
  ['POST', '/api/channel/upstream_updates/detect_all', 'compat.upstream_updates_unavailable'],
];

export function registerChannelUnsupportedRoutes(app: FastifyInstance, deps: AppDeps) {
  for (const [method, url, message] of unsupported)
    restRoute(app, deps, method, url, { auth: 'admin' }, () => {
      throw notAvailable(message);
    });
}
