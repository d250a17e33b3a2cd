import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { importerMessages } from '../../../shared/server-messages/importer.ts';

/** The console's import from new-api (server/domains/importer/): in English. Joined by client/lib/server-messages.ts. */
export const importerDescriptors: Record<keyof typeof importerMessages, MessageDescriptor> = {
  'importer.busy': msg({
    context: 'importer.busy',
    message: 'An import is already running; wait until it finishes, then try again',
  }),
  'importer.no_source': msg({
    context: 'importer.no_source',
    message: 'Enter a database connection string, or upload a SQLite database file',
  }),
  'importer.upload_missing': msg({
    context: 'importer.upload_missing',
    message: 'The uploaded file is gone; upload it again',
  }),
  'importer.upload_too_large': msg({
    context: 'importer.upload_too_large',
    message: 'The file is too large, at most {max}',
  }),
  'importer.upload_not_sqlite': msg({
    context: 'importer.upload_not_sqlite',
    message: 'The uploaded file is not a SQLite database',
  }),
};
