import { z } from 'zod';

/**
 * Starting an import from new-api (issue 42): a source the server can reach (a SQLite path on the server,
 * mysql://, postgres:// or new-api's own SQL_DSN as its .env holds it), or empty for the uploaded file.
 */
export const startImportInput = z.object({
  dsn: z.string().max(4000).default(''),
  dryRun: z.boolean().default(true),
  logs: z.boolean().default(false),
});
export type StartImportInput = z.infer<typeof startImportInput>;
