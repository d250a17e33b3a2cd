import {
  isOptionKey,
  isSecretOptionKey,
  type OptionDef,
  type OptionKey,
  optionRegistry,
  type OptionValue,
  parseOption,
} from '../../../shared/options.ts';
import type { ChangeBus } from '../../cache/bus.ts';
import type { Db } from '../../db/types.ts';
import { badRequest } from '../../errors.ts';
import { checkOptionDependencies } from './options.rules.ts';
import { listOptionRows, upsertOption } from './options.repo.ts';

export type OptionsService = ReturnType<typeof createOptionsService>;

/**
 * Options live in memory: the relay reads them on every request, so a read must
 * never touch the database. Writes go to the database first, then refresh the
 * cache and tell the other instances through the change bus.
 */
export function createOptionsService(db: Db, bus: ChangeBus) {
  const raw = new Map<string, string>();
  const parsed = new Map<OptionKey, unknown>();
  const listeners = new Set<(key: string) => void>();

  function store(key: string, value: string) {
    raw.set(key, value);
    if (!isOptionKey(key)) return;
    const r = parseOption(key, value);
    // A bad stored value (e.g. an imported database) falls back to the default instead of breaking the relay.
    parsed.set(key, r.ok ? r.value : (parseOption(key, optionRegistry[key].default) as { value: unknown }).value);
  }

  async function reload() {
    raw.clear();
    parsed.clear();
    for (const [key, def] of Object.entries(optionRegistry) as [OptionKey, OptionDef<unknown>][])
      store(key, def.default);
    for (const row of await listOptionRows(db)) store(row.key, row.value);
    for (const l of listeners) l('*');
  }

  bus.subscribe('options', () => void reload());

  const service = {
    load: reload,

    /** Typed value of a known key. */
    get<K extends OptionKey>(key: K): OptionValue<K> {
      return parsed.get(key) as OptionValue<K>;
    },

    /** Stored string of any key (unknown keys included). */
    getRaw(key: string): string | undefined {
      return raw.get(key);
    },

    /** Every option for the admin settings screens, secrets left out (as new-api does). */
    list(): { key: string; value: string }[] {
      return [...raw.entries()].filter(([k]) => !isSecretOptionKey(k)).map(([key, value]) => ({ key, value }));
    },

    /** Validates and saves one key. Unknown keys are stored as given, for compatibility with older consoles. */
    async update(key: string, value: string): Promise<void> {
      if (key.trim() === '') throw badRequest('无效的参数');
      let stored = value;
      if (isOptionKey(key)) {
        const r = parseOption(key, value);
        if (!r.ok) throw badRequest(r.message);
        checkOptionDependencies(key, r.value, service);
        // Normalised forms (trimmed URLs, cleaned domain lists) are what we keep.
        if (typeof r.value === 'string') stored = r.value;
      }
      await upsertOption(db, key, stored);
      store(key, stored);
      for (const l of listeners) l(key);
      bus.publish('options', key);
    },

    /** Called after any option changes (locally or on another instance); '*' after a full reload. */
    onChange(listener: (key: string) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return service;
}
