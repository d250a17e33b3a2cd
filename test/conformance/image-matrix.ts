/*
 * docs/conformance.md's image section (issue 44): every image door, called by its official client,
 * against every image upstream's strict fake (scripts/fake-upstream/images/ and ali/), through a
 * listening gateway, in server/relay/images/tests/door-matrix.test.ts (which checks its upstreams
 * against this list). Like the video section, it is not part of the conformance suite's run: each
 * cell names the test that proves it. After a change, `node --import tsx scripts/image-conformance-docs.ts`.
 */

export const IMAGE_MATRIX_TEST = 'server/relay/images/tests/door-matrix.test.ts';

export const IMAGE_DOORS = [
  { id: 'openai-generate', label: 'OpenAI `images.generate`', endpoint: '/v1/images/generations', edit: false },
  { id: 'openai-edit', label: 'OpenAI `images.edit` (a file)', endpoint: '/v1/images/edits', edit: true },
  {
    id: 'gemini-generate',
    label: 'Gemini `generateContent` (image output)',
    endpoint: '/v1beta/models/{m}:generateContent',
    edit: false,
  },
  {
    id: 'gemini-edit',
    label: 'Gemini `generateContent` (an inline picture)',
    endpoint: '/v1beta/models/{m}:generateContent',
    edit: true,
  },
  {
    id: 'imagen',
    label: 'Imagen `generateImages`',
    endpoint: '/v1beta1/publishers/{p}/models/{m}:predict',
    edit: false,
  },
] as const;

export interface ImageUpstreamDoc {
  id: string;
  label: string;
  /** Makes edits through the gateway; otherwise an edit is refused in the door's shape, charging nothing. */
  edits: boolean;
  fake: string;
  /** The upstream's own tests (its options, refusals, failover, billing), besides the matrix. */
  tests: string[];
  /** What the fake refuses as the real API does. */
  enforces: string;
}

export const IMAGE_UPSTREAMS: readonly ImageUpstreamDoc[] = [
  {
    id: 'openai',
    label: 'OpenAI (1)',
    edits: true,
    fake: 'scripts/fake-upstream/images/openai.ts',
    tests: ['server/relay/images/tests/openai-images.test.ts', 'server/relay/front-doors/gemini/gemini-images.test.ts'],
    enforces:
      "a `sk-` Bearer key; per model: dall-e-2's three sizes and edits of one square PNG with a mask of the same size, dall-e-3's n = 1, three sizes, quality standard/hd and style and no edits, gpt-image-1's sizes (and auto), quality low to high, no `response_format`, token usage and up to 16 edit pictures; every unknown parameter refused; OpenAI's error shape",
  },
  {
    id: 'azure',
    label: 'Azure (3)',
    edits: true,
    fake: 'scripts/fake-upstream/images/openai.ts',
    tests: ['server/relay/images/tests/openai-images.test.ts'],
    enforces:
      "OpenAI's rules on `/openai/deployments/{d}/images/*` with an `api-key` header and an `api-version` query; Azure's 401 and 404 shapes",
  },
  {
    id: 'ali',
    label: 'Ali (17)',
    edits: false,
    fake: 'scripts/fake-upstream/ali/',
    tests: ['server/relay/providers/ali/ali-channel.test.ts'],
    enforces:
      "DashScope's asynchronous text-to-image task (`X-DashScope-Async: enable`, then `/api/v1/tasks/{id}` polled), its image models, its key and its two error dialects; links only",
  },
  {
    id: 'gemini',
    label: 'Gemini (24)',
    edits: true,
    fake: 'scripts/fake-upstream/images/google.ts',
    tests: [
      'server/relay/providers/gemini/gemini-images.test.ts',
      'server/relay/front-doors/gemini/gemini-images.test.ts',
    ],
    enforces:
      "the API key (`x-goog-api-key` or `key=`); Imagen `:predict` with exactly one instance, known parameters only, sampleCount 1-4, its aspect ratios, negativePrompt refused by the models that dropped it, imageSize on Standard and Ultra only; gemini image models' `generateContent` with IMAGE among responseModalities when they are named, one candidate, at most 3 input pictures on 2.5 Flash Image, 1290 image tokens a picture; IMAGE_SAFETY, NO_IMAGE and blocked prompts; Google's error shape",
  },
  {
    id: 'vertex',
    label: 'Vertex AI (41)',
    edits: true,
    fake: 'scripts/fake-upstream/images/google.ts',
    tests: ['server/relay/providers/vertex/vertex-images.test.ts'],
    enforces:
      "Google's rules on `/v1/projects/{p}/locations/{l}/publishers/google/models/{m}`, a bearer token from the service account's token exchange (a refused account 401, another project 403) or express mode's key",
  },
  {
    id: 'volcengine',
    label: 'VolcEngine Seedream (45)',
    edits: true,
    fake: 'scripts/fake-upstream/images/ark.ts',
    tests: ['server/relay/providers/volcengine/seedream-images.test.ts'],
    enforces:
      "Ark's Bearer key; Seedream 4.0, Seedream 3.0 and SeedEdit 3.0 each with its number of input pictures, its sizes (1K/2K/4K or WxH within the pixel bounds) and guidance_scale rule; any other field refused (OpenAI's `n` too); input and output review refusals; Ark's error shape",
  },
  {
    id: 'jimeng',
    label: 'Jimeng (51)',
    edits: true,
    fake: 'scripts/fake-upstream/images/jimeng.ts',
    tests: ['server/relay/providers/jimeng/jimeng-images.test.ts'],
    enforces:
      "Volcengine's V4 signature (service cv, cn-north-1); CVSync2AsyncSubmitTask and CVSync2AsyncGetResult; each req_key's fields, sizes and number of input pictures; unknown fields refused; the task walking in_queue, generating, done; text and picture risk refusals, 429 and failed tasks",
  },
  {
    id: 'minimax',
    label: 'MiniMax (35)',
    edits: false,
    fake: 'scripts/fake-upstream/images/minimax.ts',
    tests: ['server/relay/providers/minimax/minimax-images.test.ts'],
    enforces:
      "the Bearer key; every refusal as HTTP 200 with `base_resp.status_code` (1004, 2013, 1026, 1027, 1002, 1008); image-01's aspect ratios and width/height rules, n 1-9, `subject_reference` the only picture input; censored pictures counted in failed_count",
  },
  {
    id: 'replicate',
    label: 'Replicate (56)',
    edits: true,
    fake: 'scripts/fake-upstream/images/replicate.ts',
    tests: ['server/relay/providers/replicate/replicate-images.test.ts'],
    enforces:
      "the Bearer (or Token) key; predictions by official model or by version; `Prefer: wait` held (800 ms here, 60 s at Replicate) then polled; each model's input schema as Cog validates it (422 with `invalid_fields`), unknown inputs dropped; NSFW and model failures, 429; problem+json errors; public delivery links",
  },
  {
    id: 'zhipu',
    label: 'Zhipu v4 CogView (26)',
    edits: false,
    fake: 'scripts/fake-upstream/images/zhipu.ts',
    tests: ['server/relay/providers/zhipu/cogview-images.test.ts'],
    enforces:
      'the API key or its HS256 JWT; the CogView models, their sizes, quality on cogview-4 only, no `n` (1214), unsafe content (1301) and rate limits (1302); one picture, by link',
  },
  {
    id: 'xai',
    label: 'xAI (48)',
    edits: false,
    fake: 'scripts/fake-upstream/images/xai.ts',
    tests: ['server/relay/providers/xai/xai-images.test.ts'],
    enforces:
      'the Bearer key (a wrong one 400, none 401); only model, prompt, n, response_format and user (`Argument not supported: size`); an unknown model 404; 429',
  },
  {
    id: 'siliconflow',
    label: 'SiliconFlow (40)',
    edits: true,
    fake: 'scripts/fake-upstream/images/siliconflow.ts',
    tests: ['server/relay/providers/siliconflow/siliconflow-images.test.ts'],
    enforces:
      'the Bearer key (401 "Invalid token"); each model\'s image_size list, batch_size on Kolors only, the edit models\' `image` (a data URI of a real picture) and no image_size; codes 20012 and 20015; 429',
  },
];

/** What the fakes cannot show: said in the section so nobody reads more into the ✓ than it proves. */
const NOT_REPRODUCED = [
  "The pictures themselves: every fake draws a solid-colour PNG labelled with the request that made it (where Replicate's are WebP and xAI's JPEG), so the matrix proves the pictures are the upstream's, whole and unaltered, not what they look like.",
  'Moderation: the fakes refuse by marker words in the prompt (`blocked`, `sensitive`, `[nsfw]`...), which proves how each refusal reaches the client and that it charges nothing, not what the real reviews refuse.',
  "Time: real image calls take 5 to 60 s, Replicate holds `Prefer: wait` up to 60 s and Jimeng's tasks queue; the fakes answer in milliseconds (Replicate's hold is 800 ms, the matrix's Jimeng steps every 50 ms), so the polling paths are proved, the upstreams' timeouts are not.",
  "Signatures and tokens are checked by the fakes' own implementations (Volcengine V4, Zhipu's JWT, Vertex AI's token exchange), written from the providers' documents: a misreading shared by both sides would not show.",
  "Link lifetimes: DashScope's and Replicate's delivery links expire (after a day, an hour); the fakes' links never do, so a client keeping a passed-through public link too long is not shown.",
  "Imagen's edits through `:predict` (Vertex AI's capability models, `referenceImages`): the door turns them into an edit, but no fake serves Imagen edits, so it is not proved; gemini image models make the edits of the Google columns.",
  "@google/genai 2.32 sends `generateImages` only as Vertex AI (`vertexai: true`, the `/v1beta1/publishers/...` paths); the Gemini API's `/v1beta/models/{m}:predict` is proved with plain HTTP (server/relay/front-doors/gemini/gemini-images.test.ts).",
  "Streamed pictures: no fake streams partial pictures (gpt-image-1's `stream: true`), so none is proved; the gateway asks every upstream for a whole answer, and a streaming Gemini client gets the pictures in one event.",
];

/** The section's lines, as docs/conformance.md holds them. */
export function imageSection(): string[] {
  const refs: string[] = [IMAGE_MATRIX_TEST];
  const ref = (f: string) => {
    if (!refs.includes(f)) refs.push(f);
    return refs.indexOf(f) + 1;
  };
  const matrix = ref(IMAGE_MATRIX_TEST);
  const cell = (edit: boolean, u: ImageUpstreamDoc) => (edit && !u.edits ? `— [${matrix}]` : `✓ [${matrix}]`);
  const fakes = IMAGE_UPSTREAMS.map((u) => {
    const own = u.tests.map((t) => `[${ref(t)}]`).join(' ');
    return `- **${u.label}** (\`${u.fake}\`${own ? `; also ${own}` : ''}): ${u.enforces}.`;
  });
  return [
    '## Image doors',
    '',
    "Each image door, called by its official client (the `openai` SDK's `images.generate` and `images.edit` with a",
    "file, `@google/genai`'s `generateContent` with image output, with an input picture, and `generateImages`),",
    'against a strict fake of each image upstream, through a listening gateway. A cell passes when one picture comes',
    "back in the door's own shape as the upstream's bytes, without the upstream's address or key, and exactly one",
    "picture's price is charged (the log rows, the wallet and the token agree). ✓ [n] names the test file; — [n]: the",
    "upstream makes no edits, and the test shows the edit refused in the door's shape, charging nothing. Image calls",
    'are not part of the suite run above.',
    '',
    `| door › upstream | ${IMAGE_UPSTREAMS.map((u) => u.label).join(' | ')} |`,
    `|---|${IMAGE_UPSTREAMS.map(() => '---').join('|')}|`,
    ...IMAGE_DOORS.map(
      (d) => `| ${d.label} \`${d.endpoint}\` | ${IMAGE_UPSTREAMS.map((u) => cell(d.edit, u)).join(' | ')} |`,
    ),
    '',
    '### What each fake enforces',
    '',
    ...fakes,
    '',
    '### What the fakes cannot reproduce',
    '',
    ...NOT_REPRODUCED.map((n) => `- ${n}`),
    '',
    ...refs.map((f, i) => `${i + 1}. \`${f}\``),
    '',
  ];
}
