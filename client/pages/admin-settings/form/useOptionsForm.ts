import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { isSecretOptionKey } from '../../../../shared/options.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { trpc } from '../../../trpc.ts';
import type { Values } from './fields.ts';

export interface OptionsForm {
  values: Values;
  /** Values as the server last sent them. */
  saved: Values;
  loaded: boolean;
  saving: boolean;
  set: (key: string, value: string) => void;
  setMany: (patch: Values) => void;
  changedKeys: () => string[];
  /** Saves changed keys, one call per key, in `keys` order; true when everything was saved. */
  save: (check?: (values: Values, changed: string[]) => string | null) => Promise<boolean>;
  reset: () => void;
}

/** The server refuses to switch a feature on before its configuration is stored: save switches turned on last. */
/** Options the status object's money display is made of: saving one reloads it, so amounts follow at once. */
const displayKeys = new Set([
  'QuotaPerUnit',
  'DisplayInCurrencyEnabled',
  'general_setting.quota_display_type',
  'USDExchangeRate',
  'general_setting.custom_currency_symbol',
  'general_setting.custom_currency_exchange_rate',
]);

const isSwitchOn = (key: string, v: Values) => /(Enabled|\.enabled)$/.test(key) && v[key] === 'true';
const switchesOnLast = (changed: string[], v: Values) =>
  [...changed].sort((a, b) => Number(isSwitchOn(a, v)) - Number(isSwitchOn(b, v)));

/** All options as a key → value map (one cached query shared by every section). */
export function useOptionMap(): { map: Values; loaded: boolean; error: string | null } {
  const list = trpc.options.list.useQuery(undefined, { staleTime: 30_000 });
  const map = useMemo(() => Object.fromEntries((list.data ?? []).map((o) => [o.key, o.value])), [list.data]);
  return { map, loaded: list.isSuccess, error: list.isError ? errorMessage(list.error) : null };
}

/**
 * A settings section's state: the subset of options it edits, what changed, and the
 * spec's save rules — nothing changed: a warning and no call; otherwise one
 * options.update per changed key; "saved", or "some saves failed" on a partial failure.
 */
export function useOptionsForm(
  keys: readonly string[],
  defaults: Values = {},
  /** Reorders the changed keys before saving, for rules that look at keys saved earlier. */
  order?: (changed: string[], values: Values) => string[],
): OptionsForm {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const update = trpc.options.update.useMutation();
  const { map, loaded } = useOptionMap();
  const keyList = keys.join('\n');
  const saved = useMemo(() => {
    const out: Values = {};
    for (const k of keyList.split('\n')) out[k] = map[k] ?? defaults[k] ?? '';
    return out;
    // defaults is a literal per section; its content never changes.
  }, [map, keyList]);
  const [values, setValues] = useState<Values>(saved);
  const [saving, setSaving] = useState(false);

  // Fresh server values replace what was not edited, and every key whose stored value changed
  // (first load, after a save); another section's save never wipes edits in this one.
  const previous = useRef(saved);
  useEffect(() => {
    const prev = previous.current;
    previous.current = saved;
    setValues((v) => {
      const next = { ...v };
      for (const k of Object.keys(saved)) if (v[k] === prev[k] || prev[k] !== saved[k]) next[k] = saved[k];
      return next;
    });
  }, [saved]);

  const changedKeys = useCallback(() => keys.filter((k) => values[k] !== saved[k]), [keys, values, saved]);

  const save: OptionsForm['save'] = async (check) => {
    const changed = (order ?? switchesOnLast)(changedKeys(), values);
    if (changed.length === 0) {
      notifications.show({ color: 'yellow', message: t`You seem to have changed nothing` });
      return false;
    }
    const problem = check?.(values, changed);
    if (problem) {
      notifications.show({ color: 'red', message: problem });
      return false;
    }
    setSaving(true);
    const failures: string[] = [];
    const savedSecrets: string[] = [];
    try {
      // In order: some keys depend on others saved just before (server address, then payment).
      for (const key of changed) {
        try {
          await update.mutateAsync({ key, value: values[key] });
          if (isSecretOptionKey(key)) savedSecrets.push(key);
        } catch (err) {
          failures.push(`${key}: ${errorMessage(err)}`);
        }
      }
    } finally {
      setSaving(false);
    }
    // The server never sends secrets back; empty the inputs so a second Save does not resend them.
    if (savedSecrets.length > 0) setValues((v) => ({ ...v, ...Object.fromEntries(savedSecrets.map((k) => [k, ''])) }));
    await utils.options.list.invalidate();
    // The console's amounts follow the display settings of the status object: reload it when they change.
    if (changed.some((k) => displayKeys.has(k))) await utils.status.get.invalidate();
    if (failures.length === 0) notifications.show({ color: 'teal', message: t`Saved` });
    else if (failures.length === changed.length)
      notifications.show({ color: 'red', title: t`Save failed, please retry`, message: failures.join('\n') });
    else
      notifications.show({ color: 'orange', title: t`Some saves failed, please retry`, message: failures.join('\n') });
    return failures.length === 0;
  };

  return {
    values,
    saved,
    loaded,
    saving,
    set: (key, value) => setValues((v) => ({ ...v, [key]: value })),
    setMany: (patch) => setValues((v) => ({ ...v, ...patch })),
    changedKeys,
    save,
    reset: () => setValues(saved),
  };
}
