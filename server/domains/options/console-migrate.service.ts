import type { OptionsService } from './options.service.ts';

/*
 * new-api moved its dashboard panels from top-level options (ApiInfo, Announcements, FAQ and the
 * Uptime Kuma address) to console_setting.*; its console offers a one-click migration for databases
 * that still hold the old keys (an imported new-api database can). Old values are copied only where
 * the new key is still empty, and a value that is not the JSON the new key takes is left behind.
 */
const moves = [
  ['ApiInfo', 'console_setting.api_info'],
  ['Announcements', 'console_setting.announcements'],
  ['FAQ', 'console_setting.faq'],
] as const;

const isEmptyList = (v: string | undefined) => v === undefined || v.trim() === '' || v.trim() === '[]';

export async function migrateConsoleSetting(options: OptionsService): Promise<{ migrated: string[] }> {
  const migrated: string[] = [];
  const copy = async (to: string, value: string) => {
    try {
      await options.update(to, value);
      migrated.push(to);
    } catch {
      // Not the JSON list the new key takes: left as it was.
    }
  };
  for (const [from, to] of moves) {
    const old = options.getRaw(from);
    if (!isEmptyList(old) && isEmptyList(options.getRaw(to))) await copy(to, old as string);
  }
  const url = options.getRaw('UptimeKumaUrl')?.trim();
  const slug = options.getRaw('UptimeKumaSlug')?.trim();
  if (url && slug && isEmptyList(options.getRaw('console_setting.uptime_kuma_groups')))
    await copy('console_setting.uptime_kuma_groups', JSON.stringify([{ id: 1, categoryName: 'default', url, slug }]));
  return { migrated };
}
