import type { ConsolePlanFields, PlanFields } from '../../../shared/schemas/subscriptions.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';
import { findPlan, insertPlan, listPlans, updatePlan } from './subscriptions.repo.ts';
import { planView } from './subscriptions.view.ts';

export type PlansService = ReturnType<typeof createPlansService>;

/**
 * A plan as a caller writes it. Switchyard's console states an unlimited quota with `unlimited_quota`
 * (issue 39: a forgotten quota must not sell endless spending); new-api's REST fields have no such
 * switch and keep new-api's meaning, `total_amount` 0 = unlimited, for its consoles and scripts.
 */
export type PlanInput = { from: 'console'; fields: ConsolePlanFields } | { from: 'new-api'; fields: PlanFields };

/**
 * The plans an admin sells. A plan is never deleted (orders and users' subscriptions point at it):
 * disabling takes it off sale, and what users already bought keeps the terms copied at purchase.
 */
export function createPlansService(infra: Pick<Infra, 'db'>, options: OptionsService) {
  const { db } = infra;

  /** new-api's checks beyond the schema: a real upgrade group, and custom lengths that are lengths. */
  function checked(input: PlanInput): PlanFields {
    let fields: PlanFields = input.fields;
    if (input.from === 'console') {
      const { unlimited_quota, ...rest } = input.fields;
      if (!unlimited_quota && rest.total_amount <= 0) throw badRequest('subscription.quota_required');
      fields = unlimited_quota ? { ...rest, total_amount: 0 } : rest;
    }
    if (fields.upgrade_group !== '' && !Object.hasOwn(options.get('GroupRatio'), fields.upgrade_group))
      throw badRequest('subscription.group_missing');
    if (fields.duration_unit === 'custom' && fields.custom_seconds <= 0)
      throw badRequest('subscription.custom_duration');
    if (fields.quota_reset_period === 'custom' && fields.quota_reset_custom_seconds <= 0)
      throw badRequest('subscription.custom_reset');
    // new-api's default: a length of 0 or less means one unit.
    return fields.duration_unit !== 'custom' && fields.duration_value <= 0 ? { ...fields, duration_value: 1 } : fields;
  }
  const row = (f: PlanFields) => ({ ...f, enabled: f.enabled ? 1 : 0, currency: f.currency || 'USD' });

  return {
    async list(enabledOnly: boolean) {
      return (await listPlans(db, enabledOnly)).map(planView);
    },
    async get(id: number) {
      const p = await findPlan(db, id);
      if (!p) throw notFound('subscription.plan_not_found');
      return planView(p);
    },
    async create(fields: PlanInput) {
      const now = nowSeconds();
      const id = await insertPlan(db, { ...row(checked(fields)), created_at: now, updated_at: now });
      return this.get(id);
    },
    async update(id: number, fields: PlanInput) {
      if (!(await updatePlan(db, id, { ...row(checked(fields)), updated_at: nowSeconds() })))
        throw notFound('subscription.plan_not_found');
      return this.get(id);
    },
    async setEnabled(id: number, enabled: boolean) {
      if (!(await updatePlan(db, id, { enabled: enabled ? 1 : 0, updated_at: nowSeconds() })))
        throw notFound('subscription.plan_not_found');
      return this.get(id);
    },
  };
}
