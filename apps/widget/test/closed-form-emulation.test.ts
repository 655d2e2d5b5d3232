import { collectiveCost, emulatedCollectiveCost as emulated, fabricFromSpecs } from '@trainplan/collectives';
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

  it('answers an emulated all-reduce with NCCL\'s closed form, flagged as not emulated and why', () => {
    const cost = emulatedCollectiveCost({ fabric, op: 'all-reduce', bytes: 256e6, group, layout: 'strided' });
    expect(cost).toEqual({ seconds: collectiveCost({ op: 'all-reduce', bytes: 256e6, group, fabric }).seconds, emulated: false, reason: NOT_IN_WIDGET });
    // The real emulator does run this one: the stand-in is what declines.
    expect(emulated({ fabric, op: 'all-reduce', bytes: 256e6, group, layout: 'strided' }).emulated).toBe(true);
  });

  it('a pipeline send takes the closed form\'s point-to-point time; nothing to send or one rank costs nothing, as the emulator says', () => {
    const send = emulatedStageSendCost({ fabric, bytes: 32e6 });
    expect(send.seconds).toBe(collectiveCost({ op: 'send-recv', bytes: 32e6, group: { ranks: 2, ranksPerNode: 1 }, fabric }).seconds);
    expect(send.emulated).toBe(false);
    expect(emulatedStageSendCost({ fabric, bytes: 0 })).toEqual({ seconds: 0, emulated: true });
    expect(emulatedCollectiveCost({ fabric, op: 'all-reduce', bytes: 1e6, group: { ranks: 1, ranksPerNode: 1 }, layout: 'strided' })).toEqual({ seconds: 0, emulated: true });
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
