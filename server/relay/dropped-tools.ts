import type { AttemptSuccess } from './attempts.ts';
import type { RelayCall } from './prepare.ts';

/**
 * The tools a converted request left out because the upstream cannot run them, told to the caller
 * (docs/conversion.md § Tools the upstream cannot run): the answer's header, a comma-separated list
 * of the tool types as the client declared them (`web_search`, `web_search_20250305`,
 * `web_search_options`), and the log row's `other.dropped_tools`.
 */
export const DROPPED_TOOLS_HEADER = 'x-switchyard-dropped-tools';

/**
 * What the answering attempt left out: the front door's declared built-in tools when the body was
 * converted (a native channel got them as they came), and what the provider dropped on its own.
 */
export function droppedToolsOf(call: RelayCall, ok: AttemptSuccess): string[] {
  const fromDoor = ok.native ? [] : (call.native?.droppedTools ?? []);
  const fromProvider = ok.ctx.droppedTools ?? [];
  if (fromProvider.length === 0) return fromDoor;
  return [...new Set([...fromDoor, ...fromProvider])];
}
