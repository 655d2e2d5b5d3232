/**
 * The search labels a plan for every surface (the API, the CLI, the widget: @trainplan/search describeCandidate) as
 * "TP 2 · PP 8 · DP 32 · CP 4 · v 5 · mbs 1 · SP · no recompute · distributed-optimizer", and the protocol's sentences
 * carry that label ("the plan that comes closest (TP 8 · PP 1 · DP 1 · mbs 1 · SP · full recompute) needs 857 GiB").
 * The bot's own Configuration line says a plan another way (describe-estimate.ts planWords): "TP 2 · PP 8 · VP 5 · CP 4
 * · DP 32 · micro-batch 1 · no recompute · sequence parallel · distributed optimizer". An answer says each plan one way
 * (QA: the two one line apart read as two plans), so a label the protocol passes on is said in the Configuration line's
 * words and order here; the label itself, shared with the other surfaces, is left as it is on the wire.
 */

/** describeCandidate's grammar: its parts in its order, each optional one as it writes it. */
const LABEL = new RegExp([
  String.raw`\bTP (?<tp>\d+) · PP (?<pp>\d+)(?: \((?<slots>\+embedding(?:, \+loss)?|\+loss)\))?`,
  String.raw` · DP (?<dp>[\d,]+)(?: · CP (?<cp>\d+))?(?: · v (?<v>\d+))? · mbs (?<mbs>\d+)(?<sp> · SP)?`,
  String.raw` · (?<recompute>no recompute|selective recompute|full recompute(?: of \d+ layers?\/stage)?)`,
  String.raw`(?: · (?<sharding>distributed-optimizer|zero-[123]))?`,
].join(''), 'g');

/** pipelineSlotsLabel's "(+embedding, +loss)" as the Configuration line says it (describe-estimate.ts splitWords). */
const SLOT_WORDS: Readonly<Record<string, string>> = {
  '+embedding, +loss': ' (the embedding and the loss each count as a layer)',
  '+embedding': ' (the embedding counts as a layer)',
  '+loss': ' (the loss counts as a layer)',
};

/** Groups of LABEL, named; each absent one undefined. */
type LabelGroups = Partial<Record<'tp' | 'pp' | 'slots' | 'dp' | 'cp' | 'v' | 'mbs' | 'sp' | 'recompute' | 'sharding', string>>;

function inConfigurationOrder(g: LabelGroups): string {
  const sharding = g.sharding === undefined ? undefined : g.sharding === 'distributed-optimizer' ? 'distributed optimizer' : `ZeRO-${g.sharding.slice('zero-'.length)}`;
  return [
    `TP ${g.tp ?? ''}`, `PP ${g.pp ?? ''}${g.slots === undefined ? '' : SLOT_WORDS[g.slots] ?? ''}`,
    ...(g.v === undefined ? [] : [`VP ${g.v}`]), ...(g.cp === undefined ? [] : [`CP ${g.cp}`]),
    `DP ${g.dp ?? ''}`, `micro-batch ${g.mbs ?? ''}`, g.recompute ?? '',
    ...(g.sp === undefined ? [] : ['sequence parallel']), ...(sharding === undefined ? [] : [sharding]),
  ].join(' · ');
}

/**
 * A sentence with each search label in it said in the Configuration line's words, and a runner-up's "interleaved, v 2"
 * (@trainplan/search explain.ts) as "interleaved, VP 2". Anything else is left as it is.
 */
export function planLabelWords(text: string): string {
  return text
    .replace(LABEL, (...args: unknown[]) => inConfigurationOrder(args[args.length - 1] as LabelGroups))
    .replace(/\binterleaved, v (\d+)\b/g, 'interleaved, VP $1');
}
