import type { FastifyInstance } from 'fastify';
import { allowAnyOrigin } from '../../compat/cors.ts';
import { classifyError } from '../../compat/envelope.ts';
import type { AppDeps } from '../../context.ts';
import { createTokenUsageService } from './token-usage.service.ts';

/*
 * GET /api/usage/token/: a key's own usage, asked with the key as a bearer token (new-api's
 * TokenAuthReadOnly). Its answer says `code: true` where the envelope says `success`, as new-api's does.
 */
export function registerTokenUsageRoutes(app: FastifyInstance, deps: AppDeps) {
  const usage = createTokenUsageService(deps.db);
  app.options('/api/usage/token/', (_req, reply) => {
    allowAnyOrigin(reply);
    return reply.status(204).send();
  });
  app.get('/api/usage/token/', async (req, reply) => {
    allowAnyOrigin(reply);
    const header = req.headers.authorization ?? '';
    if (header === '') return reply.status(401).send({ success: false, message: 'No Authorization header' });
    const [scheme, key, ...rest] = header.split(' ');
    if (scheme.toLowerCase() !== 'bearer' || !key || rest.length > 0)
      return reply.status(401).send({ success: false, message: 'Invalid Bearer token' });
    try {
      return { code: true, message: 'ok', data: await usage.usageOfKey(key.replace(/^sk-/, '')) };
    } catch (err) {
      return { success: false, message: classifyError(err).message };
    }
  });
}
