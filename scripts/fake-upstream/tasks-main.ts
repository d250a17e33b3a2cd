import { startFakeMidjourney } from './midjourney.ts';
import { startFakeSuno } from './suno.ts';

/**
 * `node --import tsx scripts/fake-upstream/tasks-main.ts [mjPort] [sunoPort]`: standalone fake
 * Midjourney-proxy and Suno upstreams for manual runs of a gateway (channel types 2/5 and 36).
 * Prompts steer them: "fail" fails at 30%, "banned" is refused at submit, "modal"/"duplicate" give codes 21/22.
 */
const stepMs = Number(process.env.FAKE_TASK_STEP_MS ?? 1000);
const mj = await startFakeMidjourney({ port: Number(process.argv[2] ?? 9410), stepMs });
const suno = await startFakeSuno({ port: Number(process.argv[3] ?? 9411), stepMs });
console.log(`fake Midjourney-proxy on ${mj.url}, fake Suno on ${suno.url} (one progress step every ${stepMs} ms)`);
const stop = () => void Promise.all([mj.close(), suno.close()]).then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
