import SQLite from 'better-sqlite3';

/**
 * Read access to a new-api or one-api SQLite database (opened read-only).
 * Both share most tables; one-api lacks channel tags/settings and numbers
 * channel types differently from 25 on.
 */
export type Flavor = 'new-api' | 'one-api';

export interface SourceDb {
  flavor: Flavor;
  hasTable(name: string): boolean;
  columns(table: string): Set<string>;
  rows(table: string): Record<string, unknown>[];
  close(): void;
}

export function openSource(file: string, flavor?: Flavor): SourceDb {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  const tables = new Set(
    (db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name),
  );
  if (!tables.has('users') || !tables.has('tokens')) {
    db.close();
    throw new Error(`${file} does not look like a new-api or one-api database (no users/tokens tables)`);
  }
  const columns = (table: string) =>
    new Set(
      (db.prepare(`pragma table_info("${table.replace(/"/g, '')}")`).all() as { name: string }[]).map((c) => c.name),
    );
  // new-api added channel tags and the setups table; one-api never had them.
  const detected: Flavor = tables.has('setups') || columns('channels').has('tag') ? 'new-api' : 'one-api';
  return {
    flavor: flavor ?? detected,
    hasTable: (name) => tables.has(name),
    columns,
    rows: (table) =>
      tables.has(table) ? (db.prepare(`select * from "${table}"`).all() as Record<string, unknown>[]) : [],
    close: () => db.close(),
  };
}

/**
 * one-api channel type -> Switchyard (new-api numbering). Types that one-api has and new-api
 * has not become 8 (custom OpenAI-compatible) with the vendor's base URL when none was set.
 */
export const oneApiTypeMap: Record<number, { type: number; baseUrl?: string }> = {
  25: { type: 25 }, // Moonshot
  26: { type: 8, baseUrl: 'https://api.baichuan-ai.com' }, // Baichuan
  27: { type: 35 }, // MiniMax
  28: { type: 42 }, // Mistral
  29: { type: 8, baseUrl: 'https://api.groq.com/openai' }, // Groq
  30: { type: 4 }, // Ollama
  31: { type: 31 }, // 01.AI
  32: { type: 8, baseUrl: 'https://api.stepfun.com' }, // StepFun
  33: { type: 33 }, // AWS Claude
  34: { type: 49 }, // Coze
  35: { type: 34 }, // Cohere
  36: { type: 43 }, // DeepSeek
  37: { type: 39 }, // Cloudflare
  38: { type: 8, baseUrl: 'https://api-free.deepl.com' }, // DeepL
  39: { type: 8, baseUrl: 'https://api.together.xyz' }, // Together AI
  40: { type: 45 }, // Doubao (VolcEngine)
  41: { type: 8, baseUrl: 'https://api.novita.ai/v3/openai' }, // Novita
  42: { type: 41 }, // Vertex AI
  43: { type: 8 }, // Proxy
  44: { type: 40 }, // SiliconFlow
  45: { type: 48 }, // xAI
  46: { type: 8, baseUrl: 'https://api.replicate.com' }, // Replicate
  47: { type: 46 }, // Baidu v2
  // one-api's "Xunfei v2" is Spark's OpenAI-compatible HTTP API (a bearer APIPassword), not the signed WebSocket of type 18.
  48: { type: 8, baseUrl: 'https://spark-api-open.xf-yun.com' }, // Xunfei v2
  49: { type: 17 }, // Ali Bailian
  50: { type: 8 }, // OpenAI compatible
  51: { type: 24 }, // Gemini (OpenAI compatible)
};
