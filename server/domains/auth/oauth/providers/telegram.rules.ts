import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { badRequest } from '../../../../errors.ts';
import type { OptionsService } from '../../../options/options.service.ts';
import type { ProviderProfile } from './profile.client.ts';

/** The login widget's fields; all of them except `hash` (and the console's own `lang`) are signed. */
export const telegramFields = z
  .object({
    id: z.string().regex(/^\d+$/, '无效的 Telegram id'),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
    username: z.string().optional(),
    photo_url: z.string().optional(),
    auth_date: z.string().regex(/^\d+$/, '无效的 auth_date'),
    hash: z.string().regex(/^[0-9a-f]{64}$/i, '无效的 hash'),
  })
  .loose();

/** A login older than this is refused, so a leaked widget URL cannot be replayed for long. */
const MAX_AGE_S = 24 * 3600;

/**
 * Telegram's check (core.telegram.org/widgets/login): HMAC-SHA256 of the
 * sorted `key=value` lines with SHA256(bot token) as the key.
 */
export function telegramProfile(options: OptionsService, raw: unknown): ProviderProfile {
  const fields = telegramFields.parse(raw);
  const botToken = options.get('TelegramBotToken');
  if (botToken === '') throw badRequest('oauth.telegram_unconfigured');
  const signed = Object.entries(fields as Record<string, unknown>)
    .filter(([k, v]) => k !== 'hash' && typeof v === 'string')
    .map(([k, v]) => `${k}=${String(v)}`)
    .sort()
    .join('\n');
  const key = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', key).update(signed).digest();
  const given = Buffer.from(fields.hash, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badRequest('oauth.telegram_failed');
  if (Date.now() / 1000 - Number(fields.auth_date) > MAX_AGE_S) throw badRequest('oauth.telegram_expired');
  const name = [fields.first_name, fields.last_name].filter(Boolean).join(' ');
  return { id: fields.id, displayName: name || fields.username };
}
