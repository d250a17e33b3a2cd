/** The origin a request was made to, as the client saw it (trustProxy decides protocol and host). */
export const requestOrigin = (req: { protocol: string; host: string }) => `${req.protocol}://${req.host}`;

/** The gateway's public address for the links it hands out: the operator's ServerAddress, else the request's origin. */
export const siteOrigin = (serverAddress: string, req: { protocol: string; host: string }) =>
  serverAddress.trim().replace(/\/+$/, '') || requestOrigin(req);
