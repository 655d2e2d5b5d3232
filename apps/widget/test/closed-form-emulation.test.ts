import { emulatedCollectiveCost as emulated, fabricFromSpecs } from '@trainplan/collectives';
import { NVLINKS } from '@trainplan/hardware';
import { gpuById, networkById, systemById } from '@trainplan/presets';
import { runEstimate } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { emulatedCollectiveCost, emulatedStageSendCost, NOT_IN_WIDGET } from '../src/compute/closed-form-emulation.ts';
import { buildWidgetBundle } from '../src/index.ts';

describe('the widget without the collectives emulator', () => {
  const gpu = gpuById('a100-80gb')!;
  const fabric = fabricFromSpecs({ gpu, system: systemById('dgx-a100-80gb')!, network: networkById('hdr-ib-8x')!, nvlink: NVLINKS[gpu.nvlink] });
  const group = { ranks: 64, ranksPerNode: 8, concurrentGroupsPerNode: 1 };

  it('declines every emulation, saying why (the planner then costs it with its own closed form: the bundle test checks the estimates)', () => {
    expect(emulatedCollectiveCost()).toEqual({ seconds: 0, emulated: false, reason: NOT_IN_WIDGET });
    expect(emulatedStageSendCost()).toEqual({ seconds: 0, emulated: false, reason: NOT_IN_WIDGET });
    // The real emulator does run this one: the stand-in is what declines.
    expect(emulated({ fabric, op: 'all-reduce', bytes: 256e6, group, layout: 'strided' }).emulated).toBe(true);
  });

  it('the bundle carries the stand-in, not the emulator (its refusal over the event budget is nowhere in it)', async () => {
    const { code } = await buildWidgetBundle();
    expect(code).toContain('the trainplan API and CLI run the emulator');
    // An ASCII marker from emulate-collectives.ts, in the bundle without the stand-in: esbuild writes non-ASCII
    // as escapes ("flow\u2013link"), so a marker with an en dash is never found. The budget's units too (budgetUnitsText,
    // a function so that the bundle drops it where a top-level template stayed unused).
    expect(code).not.toContain('the emulation ran past the event budget');
    expect(code).not.toContain('per flow in flight');
  });

  it('outside the widget an emulated scenario is still emulated: no fallback warning on 64 A100', () => {
    const scenario = {
      model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 8, network: 'hdr-ib-8x', communicationModel: 'emulated' },
      training: { globalBatchSize: 64, microBatchSize: 1 }, parallelism: { tensor: 8, pipeline: 8, recompute: 'full' },
    };
    const e = runEstimate(scenario);
    if (Array.isArray(e) || !e.ok) throw new Error(JSON.stringify(e).slice(0, 300));
    expect((e.warnings ?? []).filter((w: string) => w.startsWith('not emulated'))).toEqual([]);
  });
});
