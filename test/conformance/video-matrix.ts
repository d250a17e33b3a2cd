/*
 * docs/conformance.md's video section (issue 40): which front door has been driven, by its own client,
 * against which video upstream's strict fake (scripts/fake-upstream/video/), through a listening
 * gateway, and in which test file. Video jobs take minutes upstream and are not part of the
 * conformance suite's run; each cell names the test that proves it instead. Add a cell when a test
 * drives a new door × upstream pair, then run `node --import tsx scripts/video-conformance-docs.ts`.
 */

export const VIDEO_DOORS = [
  { id: 'openai', label: 'OpenAI videos', endpoint: '/v1/videos' },
  { id: 'newapi', label: 'new-api unified', endpoint: '/v1/video/generations' },
  { id: 'kling', label: 'Kling', endpoint: '/kling/v1/videos/{text2video,image2video}' },
  { id: 'jimeng', label: 'Jimeng', endpoint: '/jimeng/?Action=CVSync2AsyncSubmitTask' },
  { id: 'google', label: 'Google Veo', endpoint: '/v1beta/models/{model}:predictLongRunning' },
] as const;

export const VIDEO_UPSTREAMS = [
  { id: 'sora', label: 'Sora (55, 1, 3)' },
  { id: 'kling', label: 'Kling (50)' },
  { id: 'jimeng', label: 'Jimeng (51)' },
  { id: 'seedance', label: 'Seedance (54, 45)' },
  { id: 'vidu', label: 'Vidu (52)' },
  { id: 'wan', label: 'Wan (17)' },
  { id: 'hailuo', label: 'Hailuo (35)' },
  { id: 'veo', label: 'Veo (24)' },
  { id: 'vertex-veo', label: 'Vertex Veo (41)' },
] as const;

type DoorId = (typeof VIDEO_DOORS)[number]['id'];
type UpstreamId = (typeof VIDEO_UPSTREAMS)[number]['id'];

export interface VideoCell {
  door: DoorId;
  upstream: UpstreamId;
  /** The test file (from the repository root) that drives this pair end to end. */
  test: string;
}

const DOOR_MATRIX = 'server/relay/tasks/video/tests/door-matrix.test.ts';

/** The pairs a test drives: submit, poll to the end, download (Range), the charge or refund. */
export const VIDEO_CELLS: readonly VideoCell[] = [
  { door: 'openai', upstream: 'sora', test: 'server/relay/tasks/video/tests/openai-door.test.ts' },
  { door: 'openai', upstream: 'kling', test: 'server/relay/tasks/video/tests/openai-door-upstreams.test.ts' },
  { door: 'openai', upstream: 'jimeng', test: 'server/relay/tasks/video/tests/jimeng-door.test.ts' },
  { door: 'openai', upstream: 'seedance', test: 'server/relay/tasks/video/tests/openai-door-upstreams.test.ts' },
  { door: 'openai', upstream: 'vidu', test: 'server/relay/tasks/video/tests/openai-door-upstreams.test.ts' },
  { door: 'openai', upstream: 'wan', test: 'server/relay/tasks/video/tests/openai-door-upstreams.test.ts' },
  { door: 'openai', upstream: 'hailuo', test: 'server/relay/tasks/video/tests/openai-door-upstreams.test.ts' },
  { door: 'openai', upstream: 'vertex-veo', test: 'server/relay/tasks/video/tests/openai-door-upstreams.test.ts' },
  { door: 'newapi', upstream: 'sora', test: 'server/relay/tasks/video/tests/asia.test.ts' },
  { door: 'newapi', upstream: 'kling', test: 'server/relay/tasks/video/tests/asia.test.ts' },
  { door: 'newapi', upstream: 'seedance', test: 'server/relay/tasks/video/tests/asia.test.ts' },
  { door: 'newapi', upstream: 'vidu', test: 'server/relay/tasks/video/tests/asia.test.ts' },
  { door: 'newapi', upstream: 'wan', test: 'server/relay/tasks/video/tests/asia.test.ts' },
  { door: 'newapi', upstream: 'hailuo', test: 'server/relay/tasks/video/tests/asia.test.ts' },
  { door: 'newapi', upstream: 'jimeng', test: 'server/relay/tasks/video/tests/asia.test.ts' },
  { door: 'newapi', upstream: 'veo', test: 'server/relay/tasks/video/tests/asia.test.ts' },
  { door: 'newapi', upstream: 'vertex-veo', test: 'server/relay/tasks/video/tests/asia.test.ts' },
  { door: 'kling', upstream: 'kling', test: 'server/relay/tasks/video/tests/kling.test.ts' },
  { door: 'kling', upstream: 'sora', test: 'server/relay/tasks/video/tests/kling.test.ts' },
  { door: 'jimeng', upstream: 'jimeng', test: 'server/relay/tasks/video/tests/jimeng-door.test.ts' },
  { door: 'jimeng', upstream: 'seedance', test: 'server/relay/tasks/video/tests/jimeng-door.test.ts' },
  { door: 'openai', upstream: 'veo', test: 'server/relay/tasks/video/tests/google.test.ts' },
  { door: 'google', upstream: 'veo', test: 'server/relay/tasks/video/tests/google.test.ts' },
  { door: 'google', upstream: 'vertex-veo', test: 'server/relay/tasks/video/tests/google.test.ts' },
  { door: 'google', upstream: 'sora', test: 'server/relay/tasks/video/tests/google.test.ts' },
  { door: 'kling', upstream: 'jimeng', test: DOOR_MATRIX },
  { door: 'kling', upstream: 'seedance', test: DOOR_MATRIX },
  { door: 'kling', upstream: 'vidu', test: DOOR_MATRIX },
  { door: 'kling', upstream: 'wan', test: DOOR_MATRIX },
  { door: 'kling', upstream: 'hailuo', test: DOOR_MATRIX },
  { door: 'kling', upstream: 'veo', test: DOOR_MATRIX },
  { door: 'kling', upstream: 'vertex-veo', test: DOOR_MATRIX },
  { door: 'jimeng', upstream: 'sora', test: DOOR_MATRIX },
  { door: 'jimeng', upstream: 'kling', test: DOOR_MATRIX },
  { door: 'jimeng', upstream: 'vidu', test: DOOR_MATRIX },
  { door: 'jimeng', upstream: 'wan', test: DOOR_MATRIX },
  { door: 'jimeng', upstream: 'hailuo', test: DOOR_MATRIX },
  { door: 'jimeng', upstream: 'veo', test: DOOR_MATRIX },
  { door: 'jimeng', upstream: 'vertex-veo', test: DOOR_MATRIX },
  { door: 'google', upstream: 'kling', test: DOOR_MATRIX },
  { door: 'google', upstream: 'jimeng', test: DOOR_MATRIX },
  { door: 'google', upstream: 'seedance', test: DOOR_MATRIX },
  { door: 'google', upstream: 'vidu', test: DOOR_MATRIX },
  { door: 'google', upstream: 'wan', test: DOOR_MATRIX },
  { door: 'google', upstream: 'hailuo', test: DOOR_MATRIX },
];

/** The section's lines, as docs/conformance.md holds them. */
export function videoSection(): string[] {
  const files = [...new Set(VIDEO_CELLS.map((c) => c.test))];
  const mark = (door: DoorId, upstream: UpstreamId) => {
    const cell = VIDEO_CELLS.find((c) => c.door === door && c.upstream === upstream);
    return cell ? `✓ [${files.indexOf(cell.test) + 1}]` : '·';
  };
  return [
    '## Video doors',
    '',
    "Each video door, called as its own client calls it (the official `openai` SDK, `@google/genai`, Kling's and",
    "new-api's HTTP shapes), against a strict fake of each video upstream (`scripts/fake-upstream/video/`), through a",
    'listening gateway: submit, poll to the end, download the file (with `Range`), and the charge or the refund.',
    'Video jobs are not part of the suite run above: ✓ [n] names the test file that drives the pair (below), `·` is',
    'not driven by a test yet.',
    '',
    `| door › upstream | ${VIDEO_UPSTREAMS.map((u) => u.label).join(' | ')} |`,
    `|---|${VIDEO_UPSTREAMS.map(() => '---').join('|')}|`,
    ...VIDEO_DOORS.map(
      (d) => `| ${d.label} \`${d.endpoint}\` | ${VIDEO_UPSTREAMS.map((u) => mark(d.id, u.id)).join(' | ')} |`,
    ),
    '',
    ...files.map((f, i) => `${i + 1}. \`${f}\``),
    '',
  ];
}
