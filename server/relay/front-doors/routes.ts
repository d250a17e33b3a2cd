import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { RelayRuntime } from '../runtime.ts';
import { anthropicDoor } from './anthropic/door.ts';
import { geminiDoor } from './gemini/door.ts';
import { geminiModels } from './models.ts';
import type { FrontDoor } from './types.ts';

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The Anthropic and Gemini front doors (relay.md §1); `handleFor` runs the relay with a door. */
export function registerFrontDoors(
  app: FastifyInstance,
  rt: RelayRuntime,
  handleFor: (door: FrontDoor) => Handler,
  opts: RouteShorthandOptions,
): void {
  app.post('/v1/messages', opts, handleFor(anthropicDoor));
  app.post('/v1beta/models/*', opts, handleFor(geminiDoor));
  app.get('/v1beta/models', async (req) => geminiModels(rt, await rt.tokenAuth.authenticate(req)));
}
