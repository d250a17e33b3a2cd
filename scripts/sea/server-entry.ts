/*
 * The single executable's server code (bundled to one CommonJS file, stored as the asset
 * `server.cjs`, run by main.ts). Both entries load their modules on call, so `--help` and the
 * waiting parent never evaluate the server.
 */

/** Starts the gateway: server/main.ts runs on import. */
export async function serve(): Promise<void> {
  await import('../../server/main.ts');
}

/** `switchyard import <db> [--from new-api|one-api]`; resolves with the exit code. */
export async function runImport(args: string[]): Promise<number> {
  const { runImport } = await import('../import-cli.ts');
  return runImport(args, 'switchyard import');
}
