import type { unavailableMessages } from '../server-messages/unavailable.ts';

/**
 * new-api features answered as not available (server/compat/not-available.ts; server/domains/status/, auth/,
 * channels/, issue 32): in English. Joined by shared/server-messages-en.ts.
 */
export const unavailableEnglish: Record<keyof typeof unavailableMessages, string> = {
  'compat.codex_unavailable': 'Switchyard does not support Codex OAuth channel credentials; use an API key',
  'compat.ollama_unavailable':
    'Switchyard does not manage models on an Ollama server; pull or delete them on Ollama itself',
  'compat.upstream_updates_unavailable':
    'Detecting upstream model updates is not supported; use “Fetch models” when editing the channel',
  'compat.external_login_unavailable': 'Switchyard does not support JWT or header sign-in for custom OAuth providers',
  'feature.deployments_unavailable':
    'Switchyard does not connect to io.net model deployments (a service hosted by new-api)',
  'feature.ratio_sync_unavailable':
    'Switchyard does not sync ratios from other gateways: edit them in the ratio settings, or publish yours for other gateways to pull',
  'feature.custom_oauth_unavailable':
    'Switchyard has no custom OAuth providers: set up OIDC sign-in in the system settings',
  'feature.gc_unavailable': 'Manual garbage collection is not available in this process',
};
