import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../context.ts';

/** Registers the relay's front doors (/v1/*, /v1beta/*, /pg/*, /mj/*, /suno/*). */
export function registerRelayRoutes(_app: FastifyInstance, _deps: AppDeps): void {
  // Filled in by the relay work (issue #3).
}
