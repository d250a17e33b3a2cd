import type { importerMessages } from '../server-messages/importer.ts';

/** The console's import from new-api (server/domains/importer/): in English. Joined by shared/server-messages-en.ts. */
export const importerEnglish: Record<keyof typeof importerMessages, string> = {
  'importer.busy': 'An import is already running; wait until it finishes, then try again',
  'importer.no_source': 'Enter a database connection string, or upload a SQLite database file',
  'importer.upload_missing': 'The uploaded file is gone; upload it again',
  'importer.upload_too_large': 'The file is too large, at most {max}',
  'importer.upload_not_sqlite': 'The uploaded file is not a SQLite database',
};
