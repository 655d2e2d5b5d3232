import type { EmulatedCost } from '@trainplan/collectives';

/**
 * The widget's stand-in for @trainplan/collectives' emulator entry points (emulator/emulated-collective-cost.ts),
 * swapped in by the bundle (build.ts): the discrete-event emulator is about 11 KB of the 80 KB gzip budget,
 * for a setting (`communicationModel: "emulated"`) only a shared link can carry. A scenario that asks for it is
 * answered with NCCL's closed form, and the estimate says so in its warnings (the planner's emulation
 * fallbacks, as when the emulator itself declines a run); the API and the CLI run the emulator.
 */
export const NOT_IN_WIDGET = 'the widget carries NCCL\'s closed form only; the trainplan API and CLI run the emulator';

/**
 * Every emulation declined: the planner costs a declined collective or send with its own closed form (comm-time.ts
 * emulatedOnly), so the answer is the closed-form estimate's to the last digit, its warnings saying why.
 */
const declined: EmulatedCost = { seconds: 0, emulated: false, reason: NOT_IN_WIDGET };
export const emulatedCollectiveCost = (): EmulatedCost => declined;
export const emulatedStageSendCost = emulatedCollectiveCost;
