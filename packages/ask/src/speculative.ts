import { MODEL_IDS, modelById } from '@trainplan/presets';
import { formatCountExact, parseCount } from '@trainplan/units';
import type { Take } from './defaults.ts';
import { matchModel, namedSizeOf } from './lexicon/models.ts';
import { DRAFT_SIZE } from './lexicon/speculative.ts';
import { modelFactsOf, modelNameOf, modelShapeOf } from './model-of.ts';
import type { AskParameters } from './question.ts';

/**
 * Speculative decoding in a serving question (the protocol's `speculative`; Leviathan et al., ICML 2023): the
 * draft the question names, resolved against the model to serve, and the defaults for what it leaves out.
 *
 * A draft proposes token ids the target verifies, so the two must share a vocabulary, and it must be smaller
 * to save anything. With none named, the draft is Llama 3.2 1B for a target sharing its vocabulary (the Llama 3
 * family, 128,256 tokens, one tokenizer); any other target has no draft the bot could assume, so none is
 * planned and the answer says to name one (a wrong guess would price a draft that cannot verify).
 */

/** The draft when none is named: Llama 3.2 1B, Meta's smallest Llama 3 model and the usual draft for the family. */
export const DEFAULT_DRAFT_MODEL = 'llama3.2-1b';
/**
 * γ when none is given: 4 tokens a step. vLLM's draft-model example speculates 5 (num_speculative_tokens); fewer
 * waste fewer draft steps at the acceptance rate assumed (α^γ, the chance all are kept, is 0.24 at 0.7 and 4).
 */
export const DEFAULT_DRAFT_TOKENS = 4;
/** α when none is given: 0.7, within the 0.5–0.9 Leviathan et al. 2023 measure with small drafts; it depends on the workload. */
export const DEFAULT_ACCEPTANCE_RATE = 0.7;

const parametersOf = (id: string): number => modelById(id)?.publishedParameters ?? 0;
const nameOf = (id: string): string => modelById(id)?.shape.name ?? id;
const tokens = (n: number): string => `${n.toLocaleString('en-US')} tokens`;

/** The presets that can draft for the question's model: its vocabulary, fewer parameters; smallest first. */
export function draftsFor(p: AskParameters): string[] {
  const target = modelShapeOf(p);
  const facts = modelFactsOf(p);
  if (target === undefined || facts === undefined) return [];
  return MODEL_IDS.filter((id) => modelById(id)?.shape.vocabSize === target.vocabSize && parametersOf(id) < facts.parameters)
    .sort((a, b) => parametersOf(a) - parametersOf(b));
}

/** The draft taken when none is named, or undefined where Llama 3.2 1B cannot draft for the model. */
export const defaultDraftOf = (p: AskParameters): string | undefined => (draftsFor(p).includes(DEFAULT_DRAFT_MODEL) ? DEFAULT_DRAFT_MODEL : undefined);

/** "name one, e.g. "with llama3.2-1b as the draft" (presets that can: llama3.2-1b, llama3-8b)", or why none can. */
function nameOne(p: AskParameters): string {
  const drafts = draftsFor(p);
  if (drafts.length === 0) return `no preset shares ${modelNameOf(p)}'s vocabulary with fewer parameters`;
  return `name one, e.g. "with ${drafts[0]} as the draft" (presets that can draft for ${modelNameOf(p)}: ${drafts.join(', ')})`;
}

export type DraftReading = { ok: true; id: string; reading?: string } | { ok: false; problem: string };

/** Whether a preset can draft for the question's model, or why not. */
function checked(id: string, p: AskParameters): DraftReading {
  const target = modelShapeOf(p);
  const facts = modelFactsOf(p);
  const draft = modelById(id);
  if (target === undefined || facts === undefined || draft === undefined) return { ok: true, id };
  const cannot = `${draft.shape.name} cannot draft for ${facts.name}`;
  if (draft.shape.vocabSize !== target.vocabSize) {
    return { ok: false, problem: `${cannot}: a draft proposes tokens the model verifies, so the two share a vocabulary (${draft.shape.vocabSize.toLocaleString('en-US')} and ${tokens(target.vocabSize)}); ${nameOne(p)}` };
  }
  if (draft.publishedParameters >= facts.parameters) return { ok: false, problem: `${cannot}: a draft must be smaller than the model it drafts for; ${nameOne(p)}` };
  return { ok: true, id };
}

/** A size alone, as a draft may be named: "1b", "1.3b", "8 billion". */
const BARE_SIZE = new RegExp(String.raw`^${DRAFT_SIZE}$`);

/**
 * The draft the question names, as a preset: its id or family and size ("llama3.2-1b", "llama 3.2 1b"), or a
 * size alone, read as the preset named that size that can draft for the model ("a 1B draft" for Llama 3 70B:
 * Llama 3.2 1B, said so). A size no such preset has is refused: drafts are presets only.
 */
export function resolveDraft(written: string, p: AskParameters): DraftReading {
  const bare = BARE_SIZE.test(written);
  const m = bare ? undefined : matchModel(written);
  if (m?.model !== undefined) return checked(m.model, p);
  const size = bare ? parseCount(written) : m?.unknownSize;
  if (size === undefined) return { ok: false, problem: `the draft "${written}" is no model preset; ${nameOne(p)}` };
  const family = m?.family;
  // "1B", "Llama 1B": the size as a model's name writes it.
  const asked = `${family === undefined ? '' : `${family} `}${m?.askedSize ?? formatCountExact(size).toUpperCase()}`;
  const id = draftsFor(p).find((d) => namedSizeOf(d) === size && (family === undefined || nameOf(d).startsWith(family)));
  if (id === undefined) return { ok: false, problem: `no preset of ${asked} can draft for ${modelNameOf(p)}; ${nameOne(p)}` };
  return { ok: true, id, reading: `the ${asked} draft taken as ${nameOf(id)} (${id}), the preset of that size sharing ${modelNameOf(p)}'s vocabulary` };
}

/**
 * A serving question's speculative decoding, filled: the default draft (or none, said so, where none can be
 * assumed), γ and α, each said as an assumption; α above all, which depends on the traffic.
 */
export function fillSpeculative(p: AskParameters, take: Take): void {
  if (p.speculative !== true) return;
  if (p.draftModel === undefined) {
    const draft = defaultDraftOf(p);
    if (draft === undefined) {
      const vocabulary = modelShapeOf(p)?.vocabSize;
      take('speculative', false, `no speculative decoding: a draft must share ${modelNameOf(p)}'s vocabulary${vocabulary === undefined ? '' : ` (${tokens(vocabulary)})`}, `
        + `and the default draft, ${nameOf(DEFAULT_DRAFT_MODEL)}, shares the Llama 3 family's; ${nameOne(p)}`);
      return;
    }
    take('draftModel', draft, `${nameOf(draft)} (${draft}) as the draft model (none named): the Llama 3 family's smallest, sharing ${modelNameOf(p)}'s `
      + `${(modelById(draft)?.shape.vocabSize ?? 0).toLocaleString('en-US')}-token vocabulary, as a draft must`);
  }
  if (p.draftTokens === undefined) {
    take('draftTokens', DEFAULT_DRAFT_TOKENS, `${DEFAULT_DRAFT_TOKENS} draft tokens a step (γ; none given; vLLM's draft-model example speculates 5, its num_speculative_tokens; say e.g. "5 draft tokens")`);
  }
  if (p.acceptanceRate === undefined) {
    take('acceptanceRate', DEFAULT_ACCEPTANCE_RATE, `each draft token accepted with probability ${DEFAULT_ACCEPTANCE_RATE} (α; none given): it depends on the workload and how well `
      + `the draft predicts the model, 0.5 to 0.9 in Leviathan et al. 2023; measure yours and say e.g. "acceptance rate 0.8"`);
  }
}
