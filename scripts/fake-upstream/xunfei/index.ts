import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { FakeUpstream, RecordedRequest } from '../server.ts';
import { checkSparkAuth } from './auth.ts';
import { checkSparkFrame, SPARK_ROUTES, sparkError } from './frames.ts';

/*
 * A strict fake of Xunfei Spark's chat API (type 18): a real WebSocket server on loopback. The
 * handshake must carry Spark's URL signature made with the test's APIKey / APISecret (auth.ts:
 * 401 / 403 as Spark's gateway answers); the request frame must hold the test's app_id and a domain
 * that belongs to the path, within Spark's parameter ranges (frames.ts: Spark's error frames).
 * A taken question is answered TYPE_ANSWER in five frames (status 0, 1, 1, 1, 2), the usage on
 * the last; then the server closes. Behaviour by the last user message: `SPARK-RISKY-INPUT` gets
 * 10013 (input refused by the content audit), `SPARK-RISKY-OUTPUT` two frames then 10014 (output
 * refused mid-answer), `SPARK-SLOW` 200 ms between frames. A domain in `unlicensed` gets 11200.
 */

export const FAKE_SPARK_APP_ID = 'a1b2c3d4';
export const FAKE_SPARK_API_SECRET = 'ZmFrZS1zcGFyay1hcGktc2VjcmV0';
export const FAKE_SPARK_API_KEY = 'fake0spark0api0key0000000000000a';
/** The key as new-api stores it: APPID|APISecret|APIKey. */
export const FAKE_SPARK_KEY = `${FAKE_SPARK_APP_ID}|${FAKE_SPARK_API_SECRET}|${FAKE_SPARK_API_KEY}`;

/** The usage of every plain answer (Spark's `payload.usage.text`). */
export const SPARK_USAGE = { question_tokens: 4, prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 };
const WORDS = ['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 '];

export interface FakeSparkOptions {
  appId?: string;
  apiKey?: string;
  apiSecret?: string;
  /** Domains this app has no licence for (Spark answers 11200). */
  unlicensed?: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Json = Record<string, unknown>;

function lastUserText(frame: Json): string {
  const text = ((frame.payload as Json)?.message as Json)?.text;
  return Array.isArray(text) ? String((text.at(-1) as Json)?.content ?? '') : '';
}

export async function startFakeSpark(o: FakeSparkOptions = {}): Promise<FakeUpstream> {
  const appId = o.appId ?? FAKE_SPARK_APP_ID;
  const apiKey = o.apiKey ?? FAKE_SPARK_API_KEY;
  const apiSecret = o.apiSecret ?? FAKE_SPARK_API_SECRET;
  const requests: RecordedRequest[] = [];
  const wss = new WebSocketServer({ noServer: true });
  let session = 0;

  // Spark's host speaks WebSocket only on its chat paths.
  const server = createServer((_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'no Route matched with those values' }));
  });
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'ws://fake').pathname;
    const refuse = (status: number, message: string) => {
      const body = JSON.stringify({ message });
      const reason = status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found';
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    };
    const rec: RecordedRequest = { method: 'GET', path, headers: req.headers, body: {}, aborted: false };
    requests.push(rec);
    if (!/^\/v\d+(\.\d+)?\/chat$/.test(path) && !SPARK_ROUTES[path])
      return refuse(404, 'no Route matched with those values');
    const denied = checkSparkAuth(req, apiKey, apiSecret);
    if (denied) return refuse(denied.status, denied.message);
    wss.handleUpgrade(req, socket, head, (ws) => converse(ws, rec, path));
  });

  function converse(ws: WebSocket, rec: RecordedRequest, path: string) {
    const sid = `cht000${(++session).toString(16).padStart(4, '0')}@dx${Date.now().toString(16)}`;
    let finished = false;
    ws.on('close', () => {
      if (!finished) rec.aborted = true;
    });
    ws.once('message', (data) => {
      void (async () => {
        let frame: unknown;
        try {
          frame = JSON.parse(String(data));
        } catch {
          frame = undefined;
        }
        rec.body = (frame ?? {}) as Json;
        const send = (f: unknown) => ws.send(JSON.stringify(f));
        const end = (f: unknown) => {
          finished = true;
          send(f);
          ws.close(1000);
        };
        if (frame === undefined) return end(sparkError(10003, 'ClientMsgError', 'invalid json', sid));
        const refused = checkSparkFrame(frame, path, appId, o.unlicensed ?? [], sid);
        if (refused) return end(refused);
        const asked = lastUserText(frame as Json);
        if (asked.includes('SPARK-RISKY-INPUT'))
          return end(sparkError(10013, 'InputRiskError', 'input content risky', sid));
        const gap = asked.includes('SPARK-SLOW') ? 200 : 0;
        for (const [i, word] of WORDS.entries()) {
          if (ws.readyState !== ws.OPEN) return;
          if (gap) await sleep(gap);
          if (asked.includes('SPARK-RISKY-OUTPUT') && i === 2)
            return end(sparkError(10014, 'OutputRiskError', 'output content risky', sid));
          const last = i === WORDS.length - 1;
          const status = i === 0 ? 0 : last ? 2 : 1;
          const answer = {
            header: { code: 0, message: 'Success', sid, status },
            payload: {
              choices: { status, seq: i, text: [{ content: word, role: 'assistant', index: 0 }] },
              ...(last ? { usage: { text: SPARK_USAGE } } : {}),
            },
          };
          if (last) end(answer);
          else send(answer);
        }
      })();
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
