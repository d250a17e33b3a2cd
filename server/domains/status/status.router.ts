import { tracingView } from '../../telemetry/tracing.view.ts';
import { publicProcedure, rootProcedure, router } from '../../trpc/trpc.ts';

export const statusRouter = router({
  get: publicProcedure.query(({ ctx }) => ctx.services.status.getStatus()),
  content: publicProcedure.query(({ ctx }) => ({
    notice: ctx.services.options.get('Notice'),
    about: ctx.services.options.get('About'),
    homePageContent: ctx.services.options.get('HomePageContent'),
  })),
  /** OpenTelemetry tracing as the OTEL_* variables set it (system settings, read-only; no header values). */
  tracing: rootProcedure.query(({ ctx }) => tracingView(ctx.config.telemetry)),
});
