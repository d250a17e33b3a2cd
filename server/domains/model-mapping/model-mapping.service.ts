import {
  checkMappingRows,
  type ModelMapping,
  type ModelMappingInput,
  toMappingRows,
} from '../../../shared/schemas/model-mapping.ts';
import { appErrorOfText } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';

export type ModelMappingService = ReturnType<typeof createModelMappingService>;

/**
 * Virtual models: one public name the relay expands into several real models, tried
 * in order. Stored in the option `ModelMapping`; the relay reads the resolved order
 * from memory on every request, rebuilt only when the option changes.
 */
export function createModelMappingService(options: OptionsService) {
  let resolved = new Map<string, string[]>();

  function rebuild() {
    const next = new Map<string, string[]>();
    for (const [name, targets] of Object.entries(options.get('ModelMapping'))) {
      // Higher priority first, like channel priorities; equal priorities keep the admin's order.
      const ordered = targets
        .map((t, i) => ({ ...t, i }))
        .sort((a, b) => b.priorities - a.priorities || a.i - b.i)
        .map((t) => t.model);
      next.set(name, ordered);
    }
    resolved = next;
  }

  rebuild();
  options.onChange((key) => {
    if (key === 'ModelMapping' || key === '*') rebuild();
  });

  return {
    get(): { mapping: ModelMapping } {
      return { mapping: options.get('ModelMapping') };
    },

    async update(input: ModelMappingInput['mapping']): Promise<void> {
      const r = checkMappingRows(toMappingRows(input));
      if (!r.ok) throw appErrorOfText('BAD_REQUEST', r.message);
      await options.update('ModelMapping', JSON.stringify(r.mapping));
    },

    /** Re-reads the option from the database (after an edit made outside this instance). */
    async reload(): Promise<{ mapping: ModelMapping }> {
      await options.load();
      rebuild();
      return { mapping: options.get('ModelMapping') };
    },

    /** Real models for a virtual name in the order to try them; undefined when `name` is not virtual. */
    resolveVirtualModel(name: string): readonly string[] | undefined {
      return resolved.get(name);
    },
  };
}
