/** one-api channel type -> Switchyard (new-api numbering). Types that one-api has and new-api
 * has not become 8 (custom OpenAI-compatible) with the vendor's base URL when none was set. */
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
