import { z } from 'zod';

/** POST /api/user/aff_transfer: quota to move from the invite balance into the usable balance. */
export const affTransferInput = z.object({
  // Scripts may send the number as text.
  quota: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ message: '划转额度必须是整数' }).int('划转额度必须是整数'),
  ),
});
export type AffTransferInput = z.infer<typeof affTransferInput>;
