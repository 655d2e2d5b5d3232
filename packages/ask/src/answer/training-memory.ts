import { formatCountExact } from '@trainplan/units';
import { normalize } from '../parse.ts';
import type { ParsedQuestion } from '../question.ts';
import { asksFullFineTuningMemory, plainFineTuning } from '../scope.ts';
import type { Answer } from './answer-types.ts';

/**
 * A memory question ("does llama 3.1 405b fit on one H200 node?") is answered as training memory: weights,
 * gradients, optimizer states and activations. Serving holds the weights and a KV cache instead, far less, so
 * the answer says which it is and how to ask for the other, with the question's own model and cluster.
 */

/** "serve llama3.1-405b on 1 h200 node": the serving question of a memory question's model and cluster (as parse reads them back). */
export function servingQuestionOf(q: ParsedQuestion): string {
  const p = q.parameters;
  const model = p.model ?? (p.customModel === undefined ? 'the model' : `a ${formatCountExact(p.customModel.askedParameters)} model`);
  const gpu = q.stated.system ?? q.stated.gpu;
  const nodes = q.stated.nodes;
  const gpus = q.stated.gpus;
  const where = nodes !== undefined ? ` on ${nodes} ${gpu === undefined ? '' : `${gpu} `}node${nodes === 1 ? '' : 's'}`
    : gpus !== undefined ? ` on ${gpus} ${gpu ?? `GPU${gpus === 1 ? '' : 's'}`}`
      : gpu === undefined ? '' : ` on ${gpu}`;
  return `serve ${model}${where}`;
}

/** Said of a full fine-tuning memory question (scope.ts asksFullFineTuningMemory): what it is costed as. */
export const FULL_FINE_TUNING_AS_PRETRAINING = 'full fine-tuning costed as pretraining: every weight trained, so the same memory per GPU as pretraining '
  + 'the model at the same batch, sequence length and parallelism (weights, gradients, Adam states and activations); LoRA and QLoRA, which train adapters alone, are not modelled';

/** Said of a fine-tuning memory question that names no method (scope.ts plainFineTuning): how it is read. */
export const PLAIN_FINE_TUNING_AS_FULL = 'fine-tuning with no method named read as full fine-tuning (supervised fine-tuning of every weight, as SFT trains by default)';

/** The memory answer, said to be training's, with how to ask for serving's (and, for full fine-tuning, that it is costed as pretraining). */
export function asTrainingMemory(q: ParsedQuestion, a: Answer): Answer {
  const said = `memory for training (weights, gradients, optimizer states and activations); for serving, weights and KV cache only, ask "${servingQuestionOf(q)}"`;
  const normal = normalize(q.text);
  const fineTuning = !asksFullFineTuningMemory(normal, q.intent) ? []
    : [plainFineTuning(normal) ? `${PLAIN_FINE_TUNING_AS_FULL}; ${FULL_FINE_TUNING_AS_PRETRAINING}` : FULL_FINE_TUNING_AS_PRETRAINING];
  return { ...a, assumptions: [said, ...fineTuning, ...a.assumptions] };
}
