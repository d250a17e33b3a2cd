/** See node-flags.mjs (plain JavaScript: `npm start` runs it without a TypeScript loader). */
export declare function gatewayNodeFlags(cpus?: number): string[];
export declare function gcThreadFlags(cpus?: number): string[];
export declare const JEMALLOC_CONF: string;
export declare function jemallocCandidates(arch?: string): string[];
export declare function gatewayEnv(
  env?: Record<string, string | undefined>,
  probe?: { platform?: string; exists?: (path: string) => boolean; arch?: string },
): { LD_PRELOAD?: string; MALLOC_CONF?: string };
