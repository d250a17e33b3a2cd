import type { FastifyRequest } from 'fastify';
import { ChannelType } from '../../shared/channel-types.ts';
import { createChannelInput } from '../../shared/schemas/channels.ts';
import type { ChannelsService } from '../domains/channels/channels.service.ts';
import { DEMO_MODEL, DEMO_PREFIX } from './demo-upstream.ts';

/** The demo channel's name: what it is and that it goes before going live. */
export const DEMO_CHANNEL_NAME = 'Demo (fake answers, delete before going live)';

/**
 * The address this very server answers on, as seen from itself: the socket the admin's request came
 * in on (right behind a proxy too, and whatever PORT/HOST say). IPv6 addresses get their brackets.
 */
export function selfOrigin(req: FastifyRequest): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host =
    address.includes(':') && !address.startsWith('::ffff:') ? `[${address}]` : address.replace(/^::ffff:/, '');
  return `http://${host}:${req.socket.localPort}`;
}

/**
 * Adds an OpenAI-type channel answered by the built-in demo upstream. Lowest priority, so any real
 * channel for the same model is chosen before it.
 */
export async function addDemoChannel(channels: ChannelsService, origin: string): Promise<number> {
  const [id] = await channels.create(
    createChannelInput.parse({
      type: ChannelType.OpenAI,
      name: DEMO_CHANNEL_NAME,
      key: 'sk-demo',
      base_url: `${origin}${DEMO_PREFIX}`,
      models: DEMO_MODEL,
      group: 'default',
      priority: -999,
      mode: 'single',
    }),
  );
  return id;
}
