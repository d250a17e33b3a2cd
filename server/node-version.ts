import { requireSupportedNode } from '../scripts/runtime.mjs';

// Imported first by main.ts: on another Node line the server stops here with one line saying what to do
// (scripts/runtime.mjs), before a native addon built for Node 24 is loaded.
requireSupportedNode();
