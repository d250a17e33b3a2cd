import { startImportInput } from '../../../shared/schemas/importer.ts';
import { rootProcedure, router } from '../../trpc/trpc.ts';

/** The console's import from new-api (root only); the upload itself is REST (POST /api/import/upload). */
export const importerRouter = router({
  status: rootProcedure.query(({ ctx }) => ctx.services.importJobs.status()),
  start: rootProcedure.input(startImportInput).mutation(({ ctx, input }) => ctx.services.importJobs.start(input)),
  discardUpload: rootProcedure.mutation(({ ctx }) => ctx.services.importJobs.discardUpload()),
});
