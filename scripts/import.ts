// npm run import -- <path to a new-api or one-api SQLite database> [--from new-api|one-api]
// Imports into the database Switchyard is configured with (SQL_DSN / DATA_DIR), idempotently.
import { runImport } from './import-cli.ts';

process.exitCode = await runImport(process.argv.slice(2), 'npm run import --');
