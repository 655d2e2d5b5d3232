import { compactCount } from '../format.ts';
import { customModelOfSize } from '../custom-model.ts';
import { comparedModels, modelsNotCompared, type ResolvedModel } from '../lexicon/compared-models.ts';
import type { ModelMatch } from '../lexicon/models.ts';
import { nearPresetNote } from '../lexicon/preset-size-readings.ts';
import type { ComparedModel } from '../question.ts';
import { resolveDraft } from '../speculative.ts';
import { asTyped } from './as-typed.ts';
import type { BudgetRead } from './budget-read.ts';
import type { ModelsNamed } from './models-named.ts';
import type { ServingRead } from './serving-read.ts';
import type { ParseState } from './state.ts';

/** A model compared with the first, as planned: a preset, or a decoder of the size asked in its family's style (custom-model.ts). */
function resolveModel(m: ModelMatch, seqLength: number | undefined): ResolvedModel {
  if (m.model !== undefined) return { ok: true, model: { model: m.model, ...(m.assumed !== undefined && { reading: m.assumed }) } };
  if (m.unmodelled !== undefined) return { ok: false, why: m.unmodelled };
  const asked = m.askedSize ?? compactCount(m.unknownSize ?? 0);
  if (m.unknownSize === undefined || m.unknownSize <= 0) return { ok: false, why: `a model size must be positive, got ${asked} parameters` };
  if (m.shapeFamily === undefined) return { ok: false, why: `no ${m.family ?? 'preset'} preset has about ${asked} parameters` };
  const custom = customModelOfSize(m.unknownSize, asked, m.shapeFamily, seqLength);
  if (!custom.ok) return { ok: false, why: custom.problem };
  const reading = `${custom.reading}${nearPresetNote(m.family, m.nearPreset)}`;
  const model: ComparedModel = { customModel: custom.model, reading: m.namedAs === undefined ? reading : `${m.namedAs}: ${reading}` };
  return { ok: true, model };
}

/** The models named, as planned: a custom model's reading, and the draft resolved. */
export type ModelsResolved = ReturnType<typeof resolveModels>;

/**
 * The models named (models-named.ts), resolved once the counts and prices are read, before the intent: a model no preset has
 * shaped with the sequence length stated, the models compared where nothing else is, the draft against the model served.
 */
export function resolveModels(st: ParseState, { model, otherModels, speculative, served }: ModelsNamed, { bareTokens }: BudgetRead, { users }: ServingRead) {
  const { text, stated, problems, notRead } = st;
  let customReading: string | undefined;
  // Shaped once the counts are read: a stated sequence length is the model's ("a 30B model with seq 8192").
  if (model?.model === undefined && model?.unknownSize !== undefined && model.unknownSize > 0 && model.shapeFamily !== undefined) {
    const custom = customModelOfSize(model.unknownSize, model.askedSize ?? compactCount(model.unknownSize), model.shapeFamily, stated.seqLength);
    if (custom.ok) {
      stated.customModel = custom.model;
      customReading = custom.reading;
    } else problems.push(custom.problem);
  }
  // The other models compared: compared where nothing else is (one comparison a question); each one not compared said,
  // never dropped unsaid.
  // A model named apart from the compared run ("train llama3-8b on 64 H100, also llama3-70b"): said, never dropped unsaid.
  // Nor a count of users ("1B active users"), read as a load or a user base (lexicon/user-load.ts).
  const unjoined = otherModels?.unjoined.filter((o) => o !== bareTokens?.mention && !users.counts.includes(o.written)) ?? [];
  if (unjoined.length > 0) {
    notRead.push(...modelsNotCompared(unjoined.map((o) => asTyped(text, o.written)), 'no word compares it with the first; ask again naming it, or "A vs B"'));
  }
  if (otherModels !== undefined && otherModels.others.length > 0) {
    const others = otherModels.others.map((o) => ({ ...o, written: asTyped(text, o.written) }));
    const written = others.map((o) => o.written);
    const other = stated.comparedGpus !== undefined ? 'GPUs' : stated.comparedSizes !== undefined ? 'cluster sizes'
      : stated.comparedPrecisions !== undefined ? 'precisions' : stated.layouts !== undefined ? 'layouts' : undefined;
    if (other !== undefined) notRead.push(...modelsNotCompared(written, `one comparison a question, and this one compares ${other}; ask again naming it`));
    else {
      const compared = comparedModels(others, (m) => resolveModel(m, stated.seqLength));
      if (compared.models.length > 0) stated.comparedModels = compared.models;
      notRead.push(...compared.notRead);
    }
  }
  // The draft is read against the model to serve: its vocabulary, its size ("a 1B draft" for Llama 3 70B is Llama 3.2 1B).
  problems.push(...speculative.problems);
  const draftWritten = speculative.draftWritten ?? served.draftWritten;
  const draft = draftWritten === undefined ? undefined : resolveDraft(draftWritten, stated);
  if (draft?.ok === true) stated.draftModel = draft.id;
  else if (draft !== undefined) problems.push(draft.problem);
  Object.assign(stated, { speculative: speculative.speculative, draftTokens: speculative.draftTokens, acceptanceRate: speculative.acceptanceRate });
  return { customReading, draft };
}
