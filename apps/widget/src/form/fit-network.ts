import { resolveScenario, validateScenario } from '@trainplan/protocol';
import type { FieldValues } from './fields.ts';

/**
 * After the reader picks another GPU: a network that cannot serve it (nvl72, the GB200's NVLink domain, under an
 * H100) goes back to the GPU's default (blank), as precision does, and the note says why. It used to stay and turn
 * the next estimate into an error the reader had not made. The rule is the protocol's own (resolveScenario's
 * machine checks), asked of a one-node scenario of the GPU and network alone.
 */
export function fitNetworkToGpu(values: FieldValues): { values: FieldValues; note: string } {
  const { gpu = '', network = '' } = values;
  const valid = network ? validateScenario({ model: 'gpt3-126m', cluster: { gpu, network, nodes: 1 }, training: { globalBatchSize: 8 } }) : undefined;
  const resolved = valid?.ok ? resolveScenario(valid.value) : undefined;
  const issue = resolved && !resolved.ok ? resolved.issues.find((i) => i.path === 'cluster.network') : undefined;
  return issue ? { values: { ...values, network: '' }, note: `Network back to the GPU's default: ${issue.message}.` } : { values, note: '' };
}
