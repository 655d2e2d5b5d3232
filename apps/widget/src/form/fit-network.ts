import { resolveScenario, validateScenario } from '@trainplan/protocol';
import { gpuById } from '@trainplan/presets';
import type { FieldValues } from './fields.ts';

/**
 * Why `network` cannot serve `gpu` (the protocol's own rule, resolveScenario's machine checks, asked of a one-node
 * scenario of the GPU and network alone), or undefined when it can, or is blank.
 */
function refusal(gpu: string, network: string): { message: string } | undefined {
  const valid = network ? validateScenario({ model: 'gpt3-126m', cluster: { gpu, network, nodes: 1 }, training: { globalBatchSize: 8 } }) : undefined;
  const resolved = valid?.ok ? resolveScenario(valid.value) : undefined;
  return resolved && !resolved.ok ? resolved.issues.find((i) => i.path === 'cluster.network') : undefined;
}

/**
 * After the reader picks another GPU: a network that cannot serve it (nvl72, the GB200's NVLink domain, under an
 * H100) goes back to the GPU's default (blank), as precision does, and the note says why. It used to stay and turn
 * the next estimate into an error the reader had not made. `switchedFrom` remembers the reader's network, which comes
 * back, with a note, on a GPU it serves, as fitPrecisionToGpu brings the precision back: stepping through the GPUs with
 * the arrow keys (gb200, b200, gb200) lost the nvl72 the reader had chosen (QA; WCAG 2.2 2.1.1 Keyboard: a select's
 * arrow keys pick every option they pass, so a keyboard reader passes GPUs a pointer skips, and must not lose a field
 * to them).
 */
export function fitNetworkToGpu(values: FieldValues, switchedFrom?: string): { values: FieldValues; switchedFrom?: string; note: string } {
  const { gpu = '', network = '' } = values;
  if (switchedFrom && !refusal(gpu, switchedFrom)) {
    return { values: { ...values, network: switchedFrom }, note: `Network back to ${switchedFrom} on ${gpuById(gpu)?.name ?? gpu}.` };
  }
  const issue = refusal(gpu, network);
  return issue
    ? { values: { ...values, network: '' }, switchedFrom: network, note: `Network back to the GPU's default: ${issue.message}.` }
    : { values, switchedFrom, note: '' };
}
