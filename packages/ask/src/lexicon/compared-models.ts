import type { ComparedModel, NotRead } from '../question.ts';
import { matchModel, type ModelMatch } from './models.ts';
import { Scanner } from './quantities.ts';

/**
 * Models compared in one question: "how long to train 7B vs 13B on 64 H100", "llama3-8b or llama3-70b", "compare 7B and
 * 13B": each answered as the question asks of the first, side by side (answer/compared-models.ts), as GPUs and sizes
 * compared are. QA found the first model planned and the other dropped unsaid.
 */

/**
 * The most things a question compares side by side, the first with them: each is planned on its own (a search where no
 * layout is given), and a chat answer of more lines than this is no longer read side by side. Past it, what is left
 * out is said (Not read), never dropped unsaid.
 */
export const MAX_COMPARED = 6;

/**
 * What joins two models compared, and nothing else between them: "vs", "or", "and", a comma, "compared to", "better
 * than". Only models so joined compare: a size elsewhere in the question ("8.64 million requests a day", "a 2M €
 * budget", "seq 1m") is left for the readers of those.
 */
const JOIN = /^(?=\s*[,a-z])[\s,]*(?:(?:vs\.|(?:or|vs|versus|and|against|compared\s+(?:to|with)|(?:is\s+)?(?:better|faster|cheaper|slower)\s+than|over)\b)[\s,]*)*$/;
/**
 * "compare 7B with 13B", "compare 7B to 13B": "with" and "to" join two models only after "compare" (QA: "vs." and "compare
 * … with" dropped the second model unsaid; "vs." failed JOIN as \b found no boundary between "." and a space).
 */
const COMPARE_JOIN = /^[\s,]*(?:with|to|against|and)[\s,]*$/;
const COMPARE_BEFORE = /\bcompar(?:e|ing)\b/;

/** A mention that names a model ("llama3-70b", "gpt-3", "13b"), not a count in millions that BARE_SIZE also reads. */
const NAMED = /\d\s*(?:b|t|billion|trillion)\b|[a-z]{2,}(?<!\d\s*(?:million|params?|parameters?|models?))(?![a-z])/;

/**
 * What follows a size that counts machines: a GPU's name ("1b H100s", "1B A100 80GB", shaped as hardware.ts's GPU_TOKEN
 * reads one, never a precision or a parallel size: "300b bf16"), GPUs or nodes. The size is a cluster's, as "1M H100s" is
 * (counts.ts), refused past the protocol's caps (answer/whole-counts.ts): never a model not compared nor a token budget
 * (bare-tokens.ts). QA: "llama3-70b on 1b H100s" planned 1B tokens on 128 nodes.
 */
const COUNTS_MACHINES = /^[\s-]*(?:(?:[hd]gx[\s-]*)?(?!(?:fp|bf|tf|tp|pp|dp|ep|cp|sp|vp|mp|mb|bs|int)\d)[a-z]{1,3}\d{2,4}[a-z]*|gpus?|nodes?)\b/;

/** A model named in the question besides the first, as written ("13b"), with what the lexicon read it as. */
export interface OtherModel {
  readonly match: ModelMatch;
  readonly written: string;
}

/**
 * Takes the models compared with the served one (`first`, already blanked) out of the text: those joined to it, or to
 * one joined to it, by a comparing word alone (JOIN). The first named leads (by position: "llama3-8b vs llama3-70b"
 * plans llama3-8b first, whatever order the lexicon finds them in); the others follow in the order written. The same
 * model named twice ("70B vs llama3-70b") is one.
 */
export function takeOtherModels(s: Scanner, first: ModelMatch, firstWritten: string): { first: ModelMatch; others: OtherModel[]; unjoined: OtherModel[] } {
  // Every other mention, found on a copy: only those compared are taken out of the question's text.
  const copy = new Scanner(s.text);
  const found: OtherModel[] = [{ match: first, written: firstWritten }];
  for (let m = matchModel(copy.text); m !== undefined; m = matchModel(copy.text)) {
    found.push({ match: m, written: copy.text.slice(m.index, m.index + m.length).trim() });
    copy.blank(m);
  }
  found.sort((a, b) => a.match.index - b.match.index);
  // The run of mentions, each joined to the one before, that holds the served model.
  const at = found.findIndex((f) => f.match === first);
  const joined = (i: number): boolean => {
    const gap = s.text.slice(found[i - 1]!.match.index + found[i - 1]!.match.length, found[i]!.match.index);
    return JOIN.test(gap) || (COMPARE_JOIN.test(gap) && COMPARE_BEFORE.test(s.text.slice(0, found[i - 1]!.match.index)));
  };
  let start = at;
  while (start > 0 && joined(start)) start -= 1;
  let end = at;
  while (end + 1 < found.length && joined(end + 1)) end += 1;
  const run = found.slice(start, end + 1);
  for (const m of run) if (m.match !== first) s.blank(m.match);
  const key = (m: ModelMatch): string => m.model ?? `${m.unknownSize ?? ''}:${m.family ?? ''}:${m.unmodelled ?? ''}`;
  const [lead, ...others] = run.filter((m, i) => run.findIndex((o) => key(o.match) === key(m.match)) === i);
  // Mentions outside the run: said by the caller (Not read), never dropped unsaid.
  // A bare count in millions ("8.64 million requests", "seq 1m", "a 2M € budget") is left to the readers of those, and one of
  // machines ("1b H100s") to the cluster's counts.
  const counted = (f: OtherModel): boolean => COUNTS_MACHINES.test(s.text.slice(f.match.index + f.match.length));
  const unjoined = found.filter((f, i) => (i < start || i > end) && !run.some((m) => key(m.match) === key(f.match)) && NAMED.test(f.written) && !counted(f));
  return { first: lead!.match, others, unjoined };
}

/** A model compared, resolved: a preset, or a custom decoder of the size asked; else why it cannot be planned. */
export type ResolvedModel = { ok: true; model: ComparedModel } | { ok: false; why: string };

/** The models compared past the first, as ComparedModel, and a Not read for each that cannot be (past MAX_COMPARED, or no model to plan). */
export function comparedModels(others: readonly OtherModel[], resolve: (m: ModelMatch) => ResolvedModel): { models: ComparedModel[]; notRead: NotRead[] } {
  const models: ComparedModel[] = [];
  const notRead: NotRead[] = [];
  for (const other of others) {
    const resolved = resolve(other.match);
    if (!resolved.ok) notRead.push({ phrase: `the model "${other.written}"`, why: `not compared: ${resolved.why}` });
    else if (models.length < MAX_COMPARED - 1) models.push(resolved.model);
    else notRead.push({ phrase: `the model "${other.written}"`, why: `not compared: at most ${MAX_COMPARED} models a question are set side by side; ask again for it` });
  }
  return { models, notRead };
}

/** A Not read for each model named and not compared, with why (`because`: "no word compares it with the first"). */
export const modelsNotCompared = (written: readonly string[], because: string): NotRead[] =>
  written.map((w) => ({ phrase: `the model "${w}"`, why: `not compared: ${because}` }));
