import type { FastifyInstance } from 'fastify';
import type { RelayRuntime } from '../../runtime.ts';
import { registerGoogleVideoRoutes } from './doors/google.ts';
import { registerJimengVideoRoutes } from './doors/jimeng.ts';
import { registerKlingVideoRoutes } from './doors/kling.ts';
import { registerNewApiVideoRoutes } from './doors/newapi.ts';
import { registerOpenAIVideoRoutes } from './doors/openai.ts';
import { registerPlaygroundVideoRoutes } from './doors/playground.ts';

/*
 * The video front doors (issue 40), each in its own dialect over the one video service:
 * OpenAI's /v1/videos, new-api's /v1/video/generations, Kling's /kling/v1/videos, Jimeng's
 * /jimeng/ and Google's :predictLongRunning. One line per door.
 */
export function registerVideoRoutes(app: FastifyInstance, rt: RelayRuntime) {
  registerOpenAIVideoRoutes(app, rt);
  registerNewApiVideoRoutes(app, rt);
  registerKlingVideoRoutes(app, rt);
  registerJimengVideoRoutes(app, rt);
  registerGoogleVideoRoutes(app, rt);
  registerPlaygroundVideoRoutes(app, rt);
}
