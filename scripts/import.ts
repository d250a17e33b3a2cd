// npm run import -- <new-api SQLite file | mysql://… | postgres://… | new-api SQL_DSN> [--dry-run] [--logs]
// Imports into the database Switchyard is configured with (SQL_DSN / DATA_DIR), idempotently; exits 1 on a mismatch.
import { runImport } from './import-cli.ts';

process.exitCode = await runImport(process.argv.slice(2), 'npm run import --');
