import { startFakeOpenAI } from './server.ts';

/** `npm run fake-upstream [port]`: a standalone fake OpenAI for manual tests of a running gateway. */
const port = Number(process.argv[2] ?? process.env.FAKE_UPSTREAM_PORT ?? 9400);
const fake = await startFakeOpenAI({ port, chunkDelayMs: Number(process.env.FAKE_CHUNK_DELAY_MS ?? 0) });
console.log(`fake OpenAI upstream listening on ${fake.url} (models: gpt-4o, fail-500, fail-429, slow-<ms>, drip, ...)`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
