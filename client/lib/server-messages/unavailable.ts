import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { unavailableMessages } from '../../../shared/server-messages/unavailable.ts';

/**
 * new-api features answered as not available (server/compat/not-available.ts; server/domains/status/, auth/,
 * channels/, issue 32): in English. Joined by client/lib/server-messages.ts.
 */
export const unavailableDescriptors: Record<keyof typeof unavailableMessages, MessageDescriptor> = {
  'compat.codex_unavailable': msg({
    context: 'compat.codex_unavailable',
    message: 'Switchyard does not support Codex OAuth channel credentials; use an API key',
  }),
  'compat.ollama_unavailable': msg({
    context: 'compat.ollama_unavailable',
    message: 'Switchyard does not manage models on an Ollama server; pull or delete them on Ollama itself',
  }),
  'compat.upstream_updates_unavailable': msg({
    context: 'compat.upstream_updates_unavailable',
    message: 'Detecting upstream model updates is not supported; use “Fetch models” when editing the channel',
  }),
  'compat.external_login_unavailable': msg({
    context: 'compat.external_login_unavailable',
    message: 'Switchyard does not support JWT or header sign-in for custom OAuth providers',
  }),
  'feature.deployments_unavailable': msg({
    context: 'feature.deployments_unavailable',
    message: 'Switchyard does not connect to io.net model deployments (a service hosted by new-api)',
  }),
  'feature.ratio_sync_unavailable': msg({
    context: 'feature.ratio_sync_unavailable',
    message:
      'Switchyard does not sync ratios from other gateways: edit them in the ratio settings, or publish yours for other gateways to pull',
  }),
  'feature.custom_oauth_unavailable': msg({
    context: 'feature.custom_oauth_unavailable',
    message: 'Switchyard has no custom OAuth providers: set up OIDC sign-in in the system settings',
  }),
  'feature.gc_unavailable': msg({
    context: 'feature.gc_unavailable',
    message: 'Manual garbage collection is not available in this process',
  }),
};
