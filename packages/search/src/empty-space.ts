import type { SearchBase } from './candidate.ts';
import type { SearchConstraints, SearchSpace } from './search-space.ts';

/** A dimension the constraints cap: its list's name, the degree's label, and the caps on it. */
interface Capped {
  readonly list: keyof SearchConstraints;
  readonly label: string;
  readonly values: readonly number[];
  readonly caps: readonly { readonly below: number; readonly text: string }[];
}

/**
 * Why the constraints leave no candidate at all, or undefined where they leave some: a dimension whose
 * every size a cap on it rules out (`--tensor 16 --tensor-within-node` on 8-GPU nodes: TP 16 is more than a
 * node holds). The sizes are the space's before the caps (`unconstrained`), so it names what was asked for
 * and each cap that alone rules it all out. Said in the request's field names (the CLI rewords them as flags).
 */
export function whySpaceIsEmpty(base: SearchBase, constraints: SearchConstraints, unconstrained: SearchSpace): string | undefined {
  const domain = base.nvlinkDomainGpus;
  const where = domain === base.gpusPerNode ? `a node's ${domain} GPUs` : `an NVLink domain's ${domain} GPUs`;
  const dims: Capped[] = [
    { list: 'tensorSizes', label: 'TP', values: unconstrained.tensor, caps: [
      ...(constraints.maxTensor !== undefined ? [{ below: constraints.maxTensor, text: `maxTensor caps it at ${constraints.maxTensor}` }] : []),
      ...(constraints.tensorWithinNode ? [{ below: domain, text: `tensorWithinNode keeps tensor parallelism within ${where}` }] : []),
    ] },
    { list: 'pipelineSizes', label: 'PP', values: unconstrained.pipeline, caps: capAt(constraints.maxPipeline, 'maxPipeline') },
    { list: 'contextSizes', label: 'CP', values: unconstrained.context, caps: capAt(constraints.maxContext, 'maxContext') },
    { list: 'virtualStageCounts', label: 'v', values: unconstrained.virtualStages, caps: capAt(constraints.maxVirtualStages, 'maxVirtualStages') },
  ];
  for (const { list, label, values, caps } of dims) {
    if (values.length === 0) continue;
    const least = Math.min(...values);
    const ruling = caps.filter((c) => c.below < least);
    if (ruling.length === 0) continue;
    const asked = constraints[list] !== undefined ? `${list} asks for ${label} ${values.join(', ')}` : `the ${label} sizes tried start at ${least}`;
    return `the constraints contradict each other: ${asked}, but ${ruling.map((c) => `${c.text} (${least} > ${c.below})`).join(' and ')}`;
  }
  return undefined;
}

const capAt = (max: number | undefined, name: string) => (max === undefined ? [] : [{ below: max, text: `${name} caps it at ${max}` }]);
