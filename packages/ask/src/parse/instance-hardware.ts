import { defaultSystemForGpu } from '@trainplan/presets';
import type { HardwareMatch } from '../lexicon/hardware.ts';
import { instanceReading, type InstanceMatch } from '../lexicon/instances.ts';

/** A cloud instance type as the hardware named: its GPU, the system preset where one models it, and how it was read. */
export function instanceHardware(m: InstanceMatch): HardwareMatch {
  const { instance } = m;
  const network = instance.system === undefined ? defaultSystemForGpu(instance.gpu)?.network : undefined;
  return { index: m.index, length: m.length, gpu: instance.gpu, ...(instance.system !== undefined && { system: instance.system }), assumed: instanceReading(instance, network) };
}
