import { nowSeconds } from '../../../db/time.ts';
import type { ImportContext, Row, TableImporter } from './types.ts';
import { moveSequenceOnPostgres } from './target-sequence.repo.ts';
import { upsertById } from './upsert.repo.ts';
import { bool01, deletedAt, int, str, unixSeconds } from './values.rules.ts';

/*
 * Passkeys (new-api's passkey_credentials). new-api keeps the credential id, public key and AAGUID in standard
 * base64; we keep ids and keys in base64url and the AAGUID as a UUID, as the WebAuthn library hands them out.
 * A passkey is bound to the relying party id (the site's host) it was made for: it keeps working only where
 * Switchyard answers at the same address, which the report says (the options import carries new-api's
 * ServerAddress and passkey.rp_id over, so an operator who keeps the address keeps the passkeys).
 */

const b64url = (v: unknown) => Buffer.from(str(v), 'base64').toString('base64url');

function aaguidOf(v: unknown): string {
  const bytes = Buffer.from(str(v), 'base64');
  if (bytes.length !== 16) return '';
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const mapPasskey = (r: Row) => ({
  id: int(r.id),
  user_id: int(r.user_id),
  credential_id: b64url(r.credential_id),
  public_key: b64url(r.public_key),
  sign_count: int(r.sign_count),
  transports: str(r.transports) || '[]',
  attachment: str(r.attachment),
  aaguid: aaguidOf(r.aaguid),
  backup_eligible: bool01(r.backup_eligible),
  backup_state: bool01(r.backup_state),
  created_at: unixSeconds(r.created_at) ?? nowSeconds(),
  last_used_at: unixSeconds(r.last_used_at),
});

const hostOf = (address: string) => {
  try {
    return new URL(address).hostname;
  } catch {
    return address.trim();
  }
};

/** The RP id new-api used: its passkey.rp_id option, else its ServerAddress's host (as new-api decides it). */
async function sourceRpId(ctx: ImportContext): Promise<string> {
  const wanted = new Map<string, string>();
  for await (const batch of ctx.source.batches('options', { size: 1000, orderBy: 'key' }))
    for (const o of batch)
      if (o.key === 'passkey.rp_id' || o.key === 'ServerAddress') wanted.set(str(o.key), str(o.value));
  return (wanted.get('passkey.rp_id') ?? '').trim() || hostOf(wanted.get('ServerAddress') ?? '');
}

const checked = new WeakSet<object>();

export const passkeysImporter: TableImporter = {
  name: 'passkey_credentials',
  sourceTable: 'passkey_credentials',
  optional: true,
  async importBatch(trx, rows, ctx) {
    if (!checked.has(ctx.source)) {
      checked.add(ctx.source);
      const rpId = await sourceRpId(ctx);
      const here = hostOf(ctx.siteAddress);
      if (!rpId)
        ctx.note(
          'passkey_credentials: new-api had no ServerAddress or passkey.rp_id; passkeys work only if Switchyard answers at the address they were made at',
        );
      else if (here && here !== rpId)
        ctx.note(
          `passkey_credentials: made for ${rpId}, but Switchyard's address is ${here}: they sign in only once Switchyard answers at ${rpId} (or users register new ones)`,
        );
      else ctx.note(`passkey_credentials: made for ${rpId}; they keep working while Switchyard answers at ${rpId}`);
    }
    // The WebAuthn library re-reads these flags from every assertion; a clone warning is a state worth keeping.
    if (rows.some((r) => bool01(r.clone_warning)))
      ctx.note(
        'passkey_credentials: some were flagged by new-api as possibly cloned (clone_warning); Switchyard has no such flag: review those users',
      );
    const live = rows.filter((r) => deletedAt(r.deleted_at) === null);
    const result = await upsertById(trx, 'passkey_credentials', live.map(mapPasskey), 'credential_id');
    const gone = rows
      .filter((r) => deletedAt(r.deleted_at) !== null)
      .map((r) => ({ id: r.id, reason: 'deleted in new-api' }));
    return { imported: result.imported, skipped: [...gone, ...result.skipped] };
  },
  finish: moveSequenceOnPostgres('passkey_credentials'),
};
