/*
 * Gemini CLI 0.61, resuming a session (`--resume`), sends each restored tool turn's answers twice: the
 * user turn holds [functionResponse A, A's inlineData, functionResponse A, A's inlineData]. Gemini itself
 * refuses that ("the number of function response parts is equal to the number of function call parts"),
 * and converted it becomes two tool messages for one call, which OpenAI-compatible upstreams refuse too.
 * A repeat is recognised by the call id alone (Gemini CLI gives every call one), so clients that send no
 * ids are never touched.
 */

type Part = Record<string, unknown>;
type Content = { role?: string; parts?: Part[] } & Record<string, unknown>;

const responseId = (p: Part): string | undefined => {
  const r = p.functionResponse as { id?: unknown } | undefined;
  return r && typeof r.id === 'string' && r.id !== '' ? r.id : undefined;
};

/** One turn's parts without the answers to a call that was already answered in it (and what rides with them). */
function withoutRepeats(parts: Part[]): Part[] | undefined {
  const seen = new Set<string>();
  let out: Part[] | undefined;
  let skipping = false;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p.functionResponse !== undefined) {
      const id = responseId(p);
      skipping = id !== undefined && seen.has(id);
      if (id !== undefined) seen.add(id);
    }
    // The parts after a repeated response (its inlineData) belong to the repeat.
    if (skipping) out ??= parts.slice(0, i);
    else out?.push(p);
  }
  return out;
}

/** `contents` with repeated function responses left out, or the same array when there are none. */
export function dropRepeatedResponses<C extends Content>(contents: C[]): C[] {
  let out: C[] | undefined;
  for (let i = 0; i < contents.length; i++) {
    const c = contents[i];
    const parts = c.role !== 'model' && Array.isArray(c.parts) ? withoutRepeats(c.parts) : undefined;
    if (parts) (out ??= contents.slice()).splice(i, 1, { ...c, parts });
  }
  return out ?? contents;
}
