import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { RelayRuntime } from '../runtime.ts';
import { anthropicDoor } from './anthropic/door.ts';
import type { FrontDoor } from './types.ts';

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The Anthropic and Gemini front doors (relay.md §1); `handleFor` runs the relay with a door. */
export function registerFrontDoors(
  app: FastifyInstance,
  _rt: RelayRuntime,
  handleFor: (door: FrontDoor) => Handler,
  opts: RouteShorthandOptions,
): void {
  app.post('/v1/messages', opts, handleFor(anthropicDoor));
}
