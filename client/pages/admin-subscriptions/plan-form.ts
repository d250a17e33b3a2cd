import { useForm } from '@mantine/form';
import type { PlanFields } from '../../../shared/schemas/subscriptions.ts';
import type { PlanRow } from '../../lib/subscriptions.ts';

/** The drawer's values: new-api's plan fields, the quota as the integer the QuotaInput holds. */
export type PlanValues = Omit<PlanFields, 'total_amount'> & { total_amount: number | '' };

/** new-api's defaults for a new plan (AddEditSubscriptionModal). */
export const emptyPlan: PlanValues = {
  title: '',
  subtitle: '',
  price_amount: 0,
  currency: 'USD',
  duration_unit: 'month',
  duration_value: 1,
  custom_seconds: 0,
  enabled: true,
  sort_order: 0,
  max_purchase_per_user: 0,
  upgrade_group: '',
  total_amount: 0,
  quota_reset_period: 'never',
  quota_reset_custom_seconds: 0,
  stripe_price_id: '',
  creem_product_id: '',
};

export const valuesFromPlan = (p: PlanRow): PlanValues => ({
  ...emptyPlan,
  ...p,
  duration_unit: p.duration_unit as PlanValues['duration_unit'],
  quota_reset_period: p.quota_reset_period as PlanValues['quota_reset_period'],
});

export const toFields = (v: PlanValues): PlanFields => ({ ...v, total_amount: Number(v.total_amount) || 0 });

export function usePlanForm() {
  return useForm<PlanValues>({
    initialValues: emptyPlan,
    validate: {
      title: (v) => (v.trim() === '' ? 'title' : null),
    },
  });
}
