import type { TableImporter } from './types.ts';

/*
 * new-api 2026's custom OAuth providers and the users' bindings to them. Switchyard has one OIDC sign-in
 * (system settings) and no custom providers, so there is nowhere to keep them: every row is reported as skipped,
 * with why, and the users concerned sign in with their password (or GitHub, OIDC... bound on the user row, which
 * the users table brings over). An operator can point Switchyard's OIDC settings at the same provider.
 */
export const customOAuthProvidersImporter: TableImporter = {
  name: 'custom_oauth_providers',
  sourceTable: 'custom_oauth_providers',
  optional: true,
  importBatch: async (_trx, rows, ctx) => {
    ctx.note(
      'custom_oauth_providers: Switchyard has one OIDC sign-in and no custom providers; set its OIDC settings to the provider to keep that sign-in',
    );
    return {
      imported: 0,
      skipped: rows.map((r) => ({
        id: r.id,
        reason: `custom OAuth provider "${String(r.slug ?? r.name)}" has no place here`,
      })),
    };
  },
};

export const oauthBindingsImporter: TableImporter = {
  name: 'user_oauth_bindings',
  sourceTable: 'user_oauth_bindings',
  optional: true,
  importBatch: async (_trx, rows) => ({
    imported: 0,
    skipped: rows.map((r) => ({
      id: r.id,
      reason: `user #${String(r.user_id)} signed in through custom OAuth provider #${String(r.provider_id)}: they sign in with their password here`,
    })),
  }),
};
