import {
  isOptionKey,
  isSecretOptionKey,
  type OptionDef,
  type OptionKey,
  optionRegistry,
  type OptionValue,
  parseOption,
} from '../../../shared/options.ts';
import { optionAliases, paymentComplianceKeys } from '../../../shared/options-console.ts';
import type { ChangeBus } from '../../cache/bus.ts';
import type { Db } from '../../db/types.ts';
import { appErrorOfText, badRequest } from '../../errors.ts';
import { checkOptionDependencies, mirroredOption } from './options.rules.ts';
import { listOptionRows, upsertOption } from './options.repo.ts';

export type OptionsService = ReturnType<typeof createOptionsService>;

/** A new-api 2026 name of a Switchyard option (options-console.ts): it reads and writes that option. */
const canonicalKey = (key: string): string => (optionAliases as Record<string, string>)[key] ?? key;
const complianceKeys = new Set<string>(paymentComplianceKeys);

/**
 * Options live in memory: the relay reads them on every request, so a read must
 * never touch the database. Writes go to the database first, then refresh the
 * cache and tell the other instances through the change bus.
 */
export function createOptionsService(db: Db, bus: ChangeBus) {
  let raw = new Map<string, string>();
  let parsed = new Map<OptionKey, unknown>();
  const listeners = new Set<(key: string) => void>();

  function storeInto(rawMap: Map<string, string>, parsedMap: Map<OptionKey, unknown>, key: string, value: string) {
    rawMap.set(key, value);
    if (!isOptionKey(key)) return;
    const r = parseOption(key, value);
    // A bad stored value (e.g. an imported database) falls back to the default instead of breaking the relay.
    parsedMap.set(key, r.ok ? r.value : (parseOption(key, optionRegistry[key].default) as { value: unknown }).value);
  }
  const store = (key: string, value: string) => storeInto(raw, parsed, key, value);

  /** Builds complete new maps and swaps them in, so readers never see a half-loaded state. */
  async function reload() {
    const nextRaw = new Map<string, string>();
    const nextParsed = new Map<OptionKey, unknown>();
    for (const [key, def] of Object.entries(optionRegistry) as [OptionKey, OptionDef<unknown>][])
      storeInto(nextRaw, nextParsed, key, def.default);
    for (const row of await listOptionRows(db)) storeInto(nextRaw, nextParsed, row.key, row.value);
    raw = nextRaw;
    parsed = nextParsed;
    for (const l of listeners) l('*');
  }

  // Our own writes are applied in place already; only other instances' changes need a reload.
  let ownPublishes = 0;
  bus.subscribe('options', () => {
    if (ownPublishes > 0) {
      ownPublishes--;
      return;
    }
    void reload();
  });

  const service = {
    load: reload,

    /** Typed value of a known key. */
    get<K extends OptionKey>(key: K): OptionValue<K> {
      return parsed.get(key) as OptionValue<K>;
    },

    /** Stored string of any key (unknown keys included). */
    getRaw(key: string): string | undefined {
      return raw.get(canonicalKey(key));
    },

    /** Every option for the admin settings screens, secrets left out (as new-api does). */
    list(): { key: string; value: string }[] {
      const rows = [...raw.entries()].filter(([k]) => !isSecretOptionKey(k)).map(([key, value]) => ({ key, value }));
      for (const [alias, key] of Object.entries(optionAliases)) rows.push({ key: alias, value: raw.get(key) ?? '' });
      return rows;
    },

    /**
     * Validates and saves one key. Unknown keys are stored as given, for compatibility with older consoles.
     * The payment-compliance record is written only by its own confirmation (`system`), as in new-api.
     */
    async update(name: string, value: string, opts: { system?: boolean } = {}): Promise<void> {
      if (name.trim() === '') throw badRequest('common.invalid_params');
      if (complianceKeys.has(name) && !opts.system) throw badRequest('option.compliance_key');
      const key = canonicalKey(name);
      let stored = value;
      let mirror: [string, string] | undefined;
      if (isOptionKey(key)) {
        const r = parseOption(key, value);
        if (!r.ok) throw appErrorOfText('BAD_REQUEST', r.message);
        checkOptionDependencies(key, r.value, service.get);
        // Normalised forms (trimmed URLs, cleaned domain lists) are what we keep.
        if (typeof r.value === 'string') stored = r.value;
        mirror = mirroredOption(key, r.value, service.get);
      }
      await upsertOption(db, key, stored);
      store(key, stored);
      if (mirror) {
        await upsertOption(db, mirror[0], mirror[1]);
        store(mirror[0], mirror[1]);
      }
      for (const l of listeners) {
        l(key);
        if (mirror) l(mirror[0]);
      }
      ownPublishes++;
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
