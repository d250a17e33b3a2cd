import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Infra } from '../../context.ts';
import { badRequest, conflict } from '../../errors.ts';
import type { ConsoleImportReport, ImportRunner } from './import-runner.deps.ts';

/*
 * The console's import from new-api (issue 42): one import at a time per gateway process, run in the
 * background so the page can poll its progress, over the same runner as `npm run import`. An uploaded
 * SQLite file waits in a private temp directory for the dry run and the import that follow it, and is
 * removed once a real import of it ends or another file replaces it.
 */

/** Big enough for a new-api database with years of logs; the file goes to disk, never to memory. */
export const MAX_UPLOAD_BYTES = 16 * 1024 ** 3;
const SQLITE_MAGIC = 'SQLite format 3\0';

export type ImportJobState = 'running' | 'done' | 'failed';

export interface ImportJobView {
  id: number;
  /** What was read, a DSN's password masked. */
  source: string;
  dryRun: boolean;
  logs: boolean;
  state: ImportJobState;
  startedAt: number;
  finishedAt: number | null;
  /** The table being read and how far; tables already read, in order, with their totals. */
  progress: { table: string; done: number; total: number } | null;
  finished: { table: string; total: number }[];
  report: ConsoleImportReport | null;
  /** Why it stopped (a refused schema, an unreachable database), as the runner words it. */
  error: string | null;
}

export interface UploadView {
  name: string;
  size: number;
}

export interface StartImportInput {
  /** A SQLite path on the server, mysql://, postgres:// or new-api's SQL_DSN; empty to use the upload. */
  dsn: string;
  dryRun: boolean;
  logs: boolean;
}

/** `user:secret@tcp(...)` and `scheme://user:secret@host` shown as `user:***@...`. */
export const maskDsn = (dsn: string) => dsn.replace(/^([^:/@]*:\/\/)?([^:/@]+):([^@]*)@/, '$1$2:***@');

export function createImportJobsService(infra: Infra, runner: ImportRunner) {
  let job: ImportJobView | null = null;
  let upload: (UploadView & { dir: string; path: string }) | null = null;
  let nextId = 1;

  const dropUpload = async () => {
    const old = upload;
    upload = null;
    if (old) await rm(old.dir, { recursive: true, force: true });
  };

  async function run(view: ImportJobView, spec: string, fromUpload: boolean) {
    try {
      view.report = await runner(infra.db, {
        source: spec,
        dryRun: view.dryRun,
        logs: view.logs,
        sessionSecret: infra.config.sessionSecret,
        onProgress: (p) => {
          if (view.progress && view.progress.table !== p.table)
            view.finished.push({ table: view.progress.table, total: view.progress.total });
          view.progress = { table: p.table, done: p.done, total: p.total };
        },
      });
      if (view.progress) view.finished.push({ table: view.progress.table, total: view.progress.total });
      view.progress = null;
      view.state = 'done';
    } catch (err) {
      view.state = 'failed';
      view.error = err instanceof Error ? err.message : String(err);
      infra.log.warn({ err }, 'import from new-api failed');
    } finally {
      view.finishedAt = Date.now();
      // The dry run keeps the file for the import that follows; the import itself is the end of it.
      if (fromUpload && !view.dryRun) await dropUpload();
    }
  }

  return {
    /** The running import, or the last one this process ran; and the uploaded file waiting. */
    status: () => ({ job, upload: upload && { name: upload.name, size: upload.size } }),

    start(input: StartImportInput) {
      if (job?.state === 'running') throw conflict('importer.busy');
      const dsn = input.dsn.trim();
      if (!dsn && !upload) throw badRequest('importer.no_source');
      const spec = dsn || upload!.path;
      job = {
        id: nextId++,
        source: dsn ? maskDsn(dsn) : upload!.name,
        dryRun: input.dryRun,
        logs: input.logs,
        state: 'running',
        startedAt: Date.now(),
        finishedAt: null,
        progress: null,
        finished: [],
        report: null,
        error: null,
      };
      void run(job, spec, !dsn);
      return { id: job.id };
    },

    /** Streams an uploaded SQLite file to a private temp directory (0700), replacing an earlier one. */
    async upload(name: string, body: Readable): Promise<UploadView> {
      if (job?.state === 'running') throw conflict('importer.busy');
      const dir = await mkdtemp(join(tmpdir(), 'switchyard-import-'));
      const path = join(dir, 'new-api.db');
      let size = 0;
      try {
        await pipeline(
          body,
          async function* (chunks: AsyncIterable<Buffer>) {
            for await (const chunk of chunks) {
              size += chunk.length;
              if (size > MAX_UPLOAD_BYTES) throw badRequest('importer.upload_too_large', { max: '16 GiB' });
              yield chunk;
            }
          },
          createWriteStream(path, { mode: 0o600 }),
        );
        const head = Buffer.alloc(16);
        const file = await open(path);
        await file.read(head, 0, 16, 0).finally(() => file.close());
        if (head.toString('latin1') !== SQLITE_MAGIC) throw badRequest('importer.upload_not_sqlite');
      } catch (err) {
        await rm(dir, { recursive: true, force: true });
        throw err;
      }
      await dropUpload();
      upload = { name: name.slice(0, 200) || 'new-api.db', size, dir, path };
      return { name: upload.name, size };
    },

    async discardUpload() {
      if (job?.state === 'running') throw conflict('importer.busy');
      await dropUpload();
    },
  };
}

export type ImportJobsService = ReturnType<typeof createImportJobsService>;
