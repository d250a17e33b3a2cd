import { installAgentClients } from '../../scripts/install-agent-clients.mjs';

/** The agents project's globalSetup: the pinned clients, installed once per run when missing (a no-op otherwise). */
export default function setup() {
  installAgentClients();
}
