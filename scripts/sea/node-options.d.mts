/** See node-options.mjs (plain JavaScript: scripts/package-sea.mjs runs without a TypeScript loader). */
export declare const RELAUNCHED: string;
export declare function seaNodeFlags(cpus?: number): string[];
export declare function relaunchEnv(env?: NodeJS.ProcessEnv, cpus?: number): NodeJS.ProcessEnv;
