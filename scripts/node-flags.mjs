// The Node/V8 flags the gateway runs with (`npm start`, and the bench, which measures it as started).
// --expose-gc: the heap trim (server/ops/heap-trim.ts) gives a burst's memory back once traffic stops.
// --max-semi-space-size: the young generation tops out at 2 x 8 MB instead of 2 x 16 MB; measured by
//   `npm run bench`, 16 MB less RSS at idle for no throughput loss within the run-to-run noise.
export const GATEWAY_NODE_FLAGS = ['--expose-gc', '--max-semi-space-size=8'];
