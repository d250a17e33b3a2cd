import type { MidjourneyRow } from '../../../db/types.ts';
import { parseJson } from '../../../domains/tasks/tasks.service.ts';

/** Our own keys inside the stored `properties` (kept out of what clients see). */
export interface MjPrivate {
  notifyHook?: string;
  /** Who paid: a FAILURE refund goes back to this token too. */
  tokenId?: number;
  unlimitedToken?: boolean;
  /** The subscription pool that paid (0 or absent = the wallet). */
  subscriptionId?: number;
}

export function splitProperties(text: string): { upstream: Record<string, unknown>; own: MjPrivate } {
  const all = parseJson(text, {}) as Record<string, unknown>;
  const { _switchyard, ...upstream } = all;
  return { upstream, own: (_switchyard ?? {}) as MjPrivate };
}

export const joinProperties = (upstream: Record<string, unknown>, own: MjPrivate) =>
  JSON.stringify({ ...upstream, _switchyard: own });

/**
 * A stored drawing in the Midjourney-proxy task shape (fetch, list-by-condition,
 * notify hooks). With MjForwardUrlEnabled the picture is served by the gateway.
 */
export function mjTaskDto(row: MidjourneyRow, forwardBase: string | null) {
  const imageUrl = forwardBase !== null && row.image_url ? `${forwardBase}/mj/image/${row.mj_id}` : row.image_url;
  return {
    id: row.mj_id,
    action: row.action,
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: row.state,
    submitTime: Number(row.submit_time),
    startTime: Number(row.start_time),
    finishTime: Number(row.finish_time),
    imageUrl,
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason,
    buttons: parseJson(row.buttons, []),
    properties: splitProperties(row.properties).upstream,
  };
}
