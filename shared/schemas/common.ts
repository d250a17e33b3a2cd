import { z } from 'zod';

/*
 * Lenient scalars for bodies written by new-api consoles and scripts: numbers may
 * arrive as numeric strings, booleans as 0/1 or "true"/"false". Anything else is
 * still refused with the given message.
 */

const numeric = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v);

export const intish = (message = '参数必须是整数') => z.preprocess(numeric, z.number({ message }).int(message));

export const boolish = () =>
  z.preprocess(
    (v) => {
      if (v === 1 || v === '1' || v === 'true') return true;
      if (v === 0 || v === '0' || v === 'false') return false;
      return v;
    },
    z.boolean({ message: '参数必须是布尔值' }),
  );

export const idInput = z.object({ id: intish('id 无效').pipe(z.number().positive('id 无效')) });
export const idsInput = z.object({
  ids: z.array(intish('id 无效'), { message: '请至少选择一项' }).min(1, '请至少选择一项').max(1000),
});

/** Splits a comma list, trims, drops empties and duplicates (order kept). */
export const splitList = (v: string | readonly string[] | null | undefined, sep: RegExp = /,/): string[] => {
  const parts = typeof v === 'string' ? v.split(sep) : (v ?? []);
  return [...new Set(parts.map((s) => s.trim()).filter(Boolean))];
};
