/** See install-agent-clients.mjs (plain JavaScript: it runs before any TypeScript loader). */
export declare const CLIENTS_DIR: string;
export declare function outdated(dir: string): string[];
export declare function installAgentClients(o?: { quiet?: boolean }): void;
