import type { Infra } from './context.ts';
import { createOptionsService } from './domains/options/options.service.ts';
import { createStatusService } from './domains/status/status.service.ts';

/**
 * Builds every domain service once. Services get the infrastructure and the
 * services they depend on; transports (tRPC, REST, relay) only call them.
 */
export async function createServices(infra: Infra) {
  const options = createOptionsService(infra.db, infra.bus);
  await options.load();
  const status = createStatusService(infra, options);
  return { options, status };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
