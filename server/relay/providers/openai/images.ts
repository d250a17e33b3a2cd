import type { FormPart } from '../../front-doors/multipart.ts';
import { PARTS } from '../../front-doors/multipart.ts';
import type { AttemptContext } from '../types.ts';

/*
 * OpenAI's images API (issue 44) as the canonical body reaches it. The gpt-image models answer base64
 * only and refuse `response_format` as an unknown parameter: it is left out, and the relay's delivery
 * (images/delivery.ts) turns the pictures into links when the client asked for URLs. An edit's form
 * fields the relay read as unset (`n=NaN`, `size=` from new-api's console: relay/schemas.ts) are left
 * out of the re-sent upload too, as they are of the JSON body.
 */

const base64Only = (model: string) => model.startsWith('gpt-image');

export function openAIImageBody(ctx: AttemptContext, body: Record<string, unknown>): Record<string, unknown> {
  const drop = (name: string) => name === 'response_format' && base64Only(ctx.upstreamModel);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!drop(k)) out[k] = v;
  const parts = body[PARTS] as FormPart[] | undefined;
  if (parts) out[PARTS] = parts.filter((p) => p.filename !== undefined || (p.name in body && !drop(p.name)));
  return out;
}
