import { describe, expect, it } from 'vitest';
import { gatewayNodeFlags } from '../node-flags.mjs';
import { relaunchEnv, RELAUNCHED, seaNodeFlags } from './node-options.mjs';

describe("the single executable's Node flags", () => {
  it("are npm start's, minus --single-threaded-gc, which NODE_OPTIONS refuses", () => {
    expect(gatewayNodeFlags(1)).toContain('--single-threaded-gc');
    expect(seaNodeFlags(1)).toEqual(['--expose-gc', '--max-semi-space-size=8']);
    expect(seaNodeFlags(4)).toEqual(gatewayNodeFlags(4));
  });

  it("go into the child's NODE_OPTIONS before the operator's own, which win", () => {
    const env = relaunchEnv({ NODE_OPTIONS: '--max-semi-space-size=16', SWITCHYARD_MALLOC: 'system', PORT: '8080' }, 2);
    expect(env.NODE_OPTIONS).toBe('--expose-gc --max-semi-space-size=8 --max-semi-space-size=16');
    expect(env).toMatchObject({ PORT: '8080', [RELAUNCHED]: '1' });
    expect(env.LD_PRELOAD).toBeUndefined();
  });
});
