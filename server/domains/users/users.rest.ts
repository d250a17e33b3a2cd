import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../context.ts';
import { registerAuthRoutes } from './auth.rest.ts';

/** Every /api route of the accounts and users domain (one registration line in compat/index.ts). */
export function registerUserRoutes(app: FastifyInstance, deps: AppDeps) {
  registerAuthRoutes(app, deps);
}
