import { networkById, systemById } from '@trainplan/presets';
import { matchHardware } from '../lexicon/hardware.ts';
import { KNOWN_INSTANCE_NAMES, matchInstance, unknownInstance } from '../lexicon/instances.ts';
import { HW_TOKEN, type CountContext } from '../lexicon/quantities.ts';
import { readComparedGpus } from './gpus-compared.ts';
import { instanceHardware } from './instance-hardware.ts';
import type { ParseState } from './state.ts';
import { readUnmodelledCard } from './unmodelled-card.ts';

/**
 * A rack-scale system's rack (GB200 NVL72): its GPUs, one NVLink domain from the system's network preset, and
 * whether the question named the rack ("GB200 NVL72") rather than the GPU ("GB200"); undefined for any other system.
 */
function rackOf(system: string | undefined, named: string): CountContext['rack'] {
  if (system !== 'gb200-nvl72') return undefined;
  const gpus = networkById(systemById(system)?.network ?? '')?.nvlinkDomainGpus;
  return gpus === undefined ? undefined : { gpus, named: /nvl/.test(named) };
}

/** The hardware a question names: an instance type, a card no preset models, the GPU planned, and the GPUs compared with it. */
export type HardwareNamed = ReturnType<typeof readHardware>;

/**
 * The hardware named, read after the models and before any count: each GPU's name made the marker HW_TOKEN, by which the
 * counts find the cluster size written beside it (lexicon/counts.ts).
 */
export function readHardware(st: ParseState) {
  const { s, stated, problems } = st;
  // A cloud instance type first ("128 p4d nodes", "16 p5.48xlarge"): a node of 8 GPUs, never "4 d[ays]" out of "p4d".
  const instance = matchInstance(s.text);
  const unknownType = unknownInstance(s.text);
  if (unknownType !== undefined) {
    problems.push(`${unknownType} is not a cloud instance type I know (I read ${KNOWN_INSTANCE_NAMES.join(', ')}): name the GPU and the nodes instead, `
      + 'e.g. "4 nodes of 8 H100"');
  }
  const { besideModelled, unmodelled, unmodelledAside, unmodelledWhy } = readUnmodelledCard(st, instance);
  const hardware = instance !== undefined ? instanceHardware(instance) : unmodelled === undefined || besideModelled ? matchHardware(s.text) : undefined;
  // "8 GB200 NVL72" counts racks of 72 GPUs; "72 GB200" counts GPUs (a GB200 tray, the preset's node, holds 4).
  const rack = hardware === undefined ? undefined : rackOf(hardware.system, s.text.slice(hardware.index, hardware.index + hardware.length));
  if (hardware !== undefined) {
    s.replace(hardware, ` ${HW_TOKEN} `);
    stated.gpu = hardware.gpu;
    if (hardware.system !== undefined) stated.system = hardware.system;
    // The same GPU named again ("512 H100 vs 1024 H100", "512 H100, no wait, 1024 H100"): one GPU, its counts two sizes (cluster-sizes.ts).
    for (let again = matchHardware(s.text); again !== undefined && again.gpu === hardware.gpu; again = matchHardware(s.text)) s.replace(again, ` ${HW_TOKEN} `);
  }
  const compared = readComparedGpus(st, instance, hardware);
  return { instance, unmodelledWhy, unmodelledAside, hardware, rack, compared };
}
