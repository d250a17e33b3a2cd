/** See node-flags.mjs (plain JavaScript: `npm start` runs it without a TypeScript loader). */
export declare const GATEWAY_NODE_FLAGS: readonly string[];
