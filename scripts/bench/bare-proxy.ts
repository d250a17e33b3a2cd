import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

/**
 * The floor for the benchmark: a pass-through proxy that does nothing but forward
 * the request to the upstream and stream the answer back (same HTTP client and
 * keep-alive pool as the gateway). The gateway's governance (auth, routing,
 * billing, logs) is what it costs on top of this.
 */
export async function startBareProxy(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const agent = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      request(`${upstream}${req.url}`, {
        method: req.method as 'POST',
        dispatcher: agent,
        headers: {
          'content-type': req.headers['content-type'] ?? 'application/json',
          authorization: 'Bearer upstream',
        },
        body: Buffer.concat(chunks),
      }).then(
        async (up) => {
          res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? 'application/json') });
          for await (const chunk of up.body) res.write(chunk);
          res.end();
        },
        () => {
          res.writeHead(502).end();
        },
      );
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((r) => server.close(r));
      await agent.close();
    },
  };
}

// Run as its own process by the bench: `node --import tsx scripts/bench/bare-proxy.ts <upstream url>`.
if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const proxy = await startBareProxy(process.argv[2]);
  console.log(`bare proxy listening on ${proxy.url}`);
  process.on('SIGTERM', () => void proxy.close().then(() => process.exit(0)));
}
