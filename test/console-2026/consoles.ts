import { createTestApp, type TestApp } from '../app.ts';
import { LegacyConsole, listen } from '../legacy-console/console-client.ts';
import { createUser, ROOT_PASSWORD, ROOT_USERNAME, setupRoot } from '../users.ts';

/** A gateway on loopback with new-api's console signed in twice: as root and as a common user. */
export interface Consoles {
  t: TestApp;
  base: string;
  root: LegacyConsole;
  user: LegacyConsole;
  userId: number;
}

export async function openConsoles(opts: { userQuota?: number } = {}): Promise<Consoles> {
  const t = await createTestApp();
  const base = await listen(t);
  await setupRoot(t);
  const root = await new LegacyConsole(base).login(ROOT_USERNAME, ROOT_PASSWORD);
  const u = await createUser(t, opts.userQuota === undefined ? {} : { quota: opts.userQuota });
  const user = await new LegacyConsole(base).login(u.username, u.password);
  return { t, base, root, user, userId: u.id };
}

/** The console reads answers as untyped JSON, field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Json = any;
export type Envelope<T = Json> = { success?: boolean; message?: string; data?: T } & Record<string, unknown>;
/** An answer read as the console reads `res.data`. */
export const env = <T = Json>(r: { data: unknown }) => r.data as Envelope<T>;
