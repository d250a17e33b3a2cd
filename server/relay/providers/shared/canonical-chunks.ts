/** The last chunk of a converted chat stream when the client asked for usage: no choices, the usage only. */
export const usageChunk = (id: string, created: number, model: string, usage: object) =>
  JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
