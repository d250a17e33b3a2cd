import type { Infra } from './context.ts';
import { createMessagesService } from './domains/messages/messages.service.ts';
import { createOptionsService } from './domains/options/options.service.ts';
import { createStatusService } from './domains/status/status.service.ts';
import { createUsersService } from './domains/users/users.service.ts';

/**
 * Builds every domain service once. Services get the infrastructure and the
 * services they depend on; transports (tRPC, REST, relay) only call them.
 */
export async function createServices(infra: Infra) {
  const messages = createMessagesService(infra.db);
  const options = createOptionsService(infra.db, infra.bus);
  await options.load();
  const status = createStatusService(infra, options);
  const users = createUsersService(infra, options, status);
  return { messages, options, status, users };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
