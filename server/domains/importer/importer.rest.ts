import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { startImportInput } from '../../../shared/schemas/importer.ts';
import { q, restRoute } from '../../compat/route.ts';
import { badRequest } from '../../errors.ts';
import type { AppDeps } from '../../context.ts';

const uploadQuery = z.object({ name: q.str() });

/**
 * /api/import/* (root only): the console's import from new-api for scripts, the same service as the page
 * and `npm run import`. Upload a SQLite file as the raw request body, start a dry run or the import, poll.
 */
export function registerImportRoutes(app: FastifyInstance, deps: AppDeps) {
  const jobs = deps.services.importJobs;
  const root = { auth: 'root' } as const;

  restRoute(app, deps, 'GET', '/api/import/status', root, () => jobs.status());
  restRoute(app, deps, 'POST', '/api/import/start', { ...root, body: startImportInput }, ({ body }) =>
    jobs.start(body),
  );
  restRoute(app, deps, 'DELETE', '/api/import/upload', root, () => jobs.discardUpload());

  void app.register(async (scoped) => {
    // The body stays an unread stream until the route has checked the caller is root; the service writes it
    // to disk with its own size limit, so a database of several GB never sits in memory.
    scoped.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
    restRoute(scoped, deps, 'POST', '/api/import/upload', { ...root, query: uploadQuery }, ({ req, query }) => {
      // Any other content type arrives parsed (JSON, text): the file must come as raw bytes.
      if (!(req.body instanceof Readable)) throw badRequest('importer.upload_not_sqlite');
      return jobs.upload(query.name, req.body);
    });
  });
}
