/*
 * A finished video job's player, as the task log and the playground show it: the gateway streams the
 * file on the console's video door (/pg/videos/:id/content, with Range so the player can seek),
 * never the upstream's URL; the session decides whose jobs it may play.
 */

/** The file of a finished job, streamed by the gateway. */
export const videoContentUrl = (id: string) => `/pg/videos/${encodeURIComponent(id)}/content`;

export function VideoPlayer({ id, maxHeight, testId }: { id: string; maxHeight: string; testId?: string }) {
  return (
    <video
      // A new job is a new element: the player never shows the previous job's frames.
      key={id}
      controls
      playsInline
      preload="metadata"
      src={videoContentUrl(id)}
      data-testid={testId}
      style={{ width: '100%', maxHeight, background: 'black', borderRadius: 8 }}
    />
  );
}
