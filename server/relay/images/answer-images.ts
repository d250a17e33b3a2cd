import type { Answering } from '../answer.ts';
import { RelayError, refusal } from '../errors.ts';
import type { Usage } from '../providers/types.ts';
import { clientJson, deliverImages, pictureCount } from './delivery.ts';
import { parseImagesAnswer, usageOfImagesAnswer } from './image-answer.ts';

/*
 * The answering step of an image call (issue 44): the upstream's answer -> the canonical images
 * answer (the adapter's convertResponse) -> delivery as the client asked (delivery.ts) -> the door's
 * dialect (FrontDoor.convertImages) or OpenAI's JSON. A native attempt (the door's own protocol on
 * both sides) is the door's convertResponse, which counts the pictures. An answer with no picture is
 * the upstream's failure: 502, the reservation refunded, nothing charged. Always one whole answer,
 * even to a door that streams.
 */

/** An upstream that answered 2xx without a picture (content filtered, an empty list). */
export const noPictures = () =>
  new RelayError(502, 'The upstream answered without any image', 'no_image_generated', true, '上游未返回任何图片');

export async function answerImages({ rt, call, served, headers, bill }: Answering): Promise<void> {
  const { ok, reservation } = served;
  const { door, reply } = call;
  const refund = () => rt.track(rt.deps.services.billing.refund(reservation));
  let out: { body: string; usage?: Usage; images: number };
  try {
    const text = await ok.res.body.text();
    out = door && ok.native ? nativeAnswer(call, served, text) : await convertedAnswer(rt, call, served, text);
  } catch (err) {
    // Nothing reached the client: refund, never bill (runRelay logs the failure).
    refund();
    throw call.abort.aborted
      ? refusal(499, 'The client closed the connection', '客户端已断开连接', 'client_closed')
      : err;
  }
  const frtMs = Math.round(performance.now() - call.startedAt);
  reply.hijack();
  const sse = /^\s*(data|event):/.test(out.body);
  reply.raw.writeHead(200, { ...headers, 'content-type': sse ? 'text/event-stream' : 'application/json' });
  reply.raw.end(out.body);
  bill({ reported: out.usage, produced: () => '', frtMs, clientAborted: false, cut: false, images: out.images });
}

function nativeAnswer(call: Answering['call'], served: Answering['served'], text: string) {
  const r = call.door!.convertResponse(served.ok, text, call.body, call.native);
  if (!r.images) throw noPictures();
  return { body: r.body, usage: r.usage, images: r.images };
}

async function convertedAnswer(
  rt: Answering['rt'],
  call: Answering['call'],
  served: Answering['served'],
  text: string,
) {
  const { ok } = served;
  const converted = ok.adapter.convertResponse(ok.ctx, text);
  const canonical = parseImagesAnswer(converted.body);
  if (pictureCount(canonical) === 0) throw noPictures();
  const delivered = await deliverImages(rt, call, ok, canonical);
  const usage = converted.usage ?? usageOfImagesAnswer(canonical);
  const body = call.door?.convertImages ? call.door.convertImages(ok, delivered, call.native) : clientJson(delivered);
  return { body, usage, images: pictureCount(delivered) };
}
