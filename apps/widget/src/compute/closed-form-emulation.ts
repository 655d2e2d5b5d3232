import { collectiveCost, type EmulatedCost, type EmulatedCostOptions, type Fabric } from '@trainplan/collectives';

/**
 * The widget's stand-in for @trainplan/collectives' emulator entry points (emulator/emulated-collective-cost.ts),
 * swapped in by the bundle (build.ts): the discrete-event emulator is about 11 KB of the 80 KB gzip budget,
 * for a setting (`communicationModel: "emulated"`) only a shared link can carry. A scenario that asks for it is
 * answered with NCCL's closed form, and the estimate says so in its warnings (the planner's emulation
 * fallbacks, as when the emulator itself declines a run); the API and the CLI run the emulator.
 */
export const NOT_IN_WIDGET = 'the widget carries NCCL\'s closed form only; the trainplan API and CLI run the emulator';

export function emulatedCollectiveCost(options: EmulatedCostOptions): EmulatedCost {
  const { fabric, op, bytes, group } = options;
  if (group.ranks <= 1 || !(bytes > 0)) return { seconds: 0, emulated: true };
  return { seconds: collectiveCost({ op, bytes, group, fabric }).seconds, emulated: false, reason: NOT_IN_WIDGET };
}

export function emulatedStageSendCost(options: { readonly fabric: Fabric; readonly bytes: number }): EmulatedCost {
  const { fabric, bytes } = options;
  if (!(bytes > 0)) return { seconds: 0, emulated: true };
  return { seconds: collectiveCost({ op: 'send-recv', bytes, group: { ranks: 2, ranksPerNode: 1 }, fabric }).seconds, emulated: false, reason: NOT_IN_WIDGET };
}
