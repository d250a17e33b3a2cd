/** Parses Fastify's printRoutes({commonPrefix:false}) tree into (method, path) pairs (HEAD/OPTIONS/TRACE/QUERY left out). */
export function listRoutes(tree: string): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = line.match(/^([│ ]*)[├└]── (\S+?)(?: \(([^)]*)\))?$/);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    const full = (depth > 0 ? stack[depth - 1] : '') + m[2];
    stack.push(full);
    if (!m[3]) continue;
    for (const method of m[3].split(', '))
      if (!['HEAD', 'OPTIONS', 'TRACE', 'QUERY'].includes(method)) out.push({ method, path: full });
  }
  return out;
}
