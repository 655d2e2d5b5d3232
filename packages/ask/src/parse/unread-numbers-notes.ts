import { countOf } from '@trainplan/units';
import { HW_TOKEN } from '../lexicon/quantities.ts';
import { unreadNumbers } from '../lexicon/unread-numbers.ts';
import { SUPERPOD_WHY } from '../lexicon/unmodelled-settings.ts';
import { asTyped, literal } from './as-typed.ts';
import type { Plan, Reads } from './reads.ts';
import type { ParseState } from './state.ts';

/** Where a number stands as a cluster size does: after "on", "with", "using", "across", "over". */
const AS_SIZE = /\b(?:on|onto|with|using|across|over)\s+(?:an?\s+)?$/;

/**
 * The numbers no reader took (lexicon/unread-numbers.ts), each with whether it stands as a cluster size; less those already
 * said: a bare number a problem or a note names ("from 64 to 512 nodes" refused as a range), a number with its word any
 * default names too ("20 gigatoken prompts" not read as a length).
 */
function leftNumbers(scanned: string, problems: readonly string[], defaults: readonly string[]): { phrase: string; asSize: boolean }[] {
  // A run of blanks is a word a reader took out ("64 ‹4090s› vs"): the number is quoted alone, as typed, never with the gap.
  return unreadNumbers(scanned).map((p) => p.split(/\s{2,}/)[0] ?? p).flatMap((phrase) => {
    const bare = !/\s/.test(phrase);
    const said = new RegExp(String.raw`(?<![\w.])${literal(phrase)}(?![\w.])`);
    if ((bare ? problems : [...problems, ...defaults]).some((t) => said.test(t.toLowerCase()))) return [];
    return [{ phrase, asSize: AS_SIZE.test(scanned.slice(0, scanned.indexOf(phrase))) }];
  });
}

/**
 * Numbers written but not read, said on the defaults they replaced: a cluster size ("the 512 beside the GPU's name", "a DGX
 * SuperPOD", "8x H100 nodes" with no count), a length, and any other number no reader took.
 */
export function noteUnreadNumbers(st: ParseState, read: Reads, { intent, facts, defaults }: Plan): void {
  const { s, text, problems, notRead } = st;
  const { cluster: { besideGpu, counts }, serving: { unreadLength }, layouts: { unreadContext } } = read;
  // A cluster size written but not read ("a DGX SuperPOD", a number beside the GPU): the default nodes say so.
  const unreadSize = besideGpu === undefined ? undefined : besideGpu[1] ?? besideGpu[2];
  const nodesTaken = defaults.find((d) => d.field === 'nodes' && facts.nodes === undefined && facts.gpus === undefined);
  if (nodesTaken !== undefined && unreadSize !== undefined) nodesTaken.text = nodesTaken.text.replace('no cluster size given', `the ${unreadSize} beside the GPU's name not read as a cluster size; say e.g. "${unreadSize} H100"`);
  else if (nodesTaken !== undefined && notRead.some((n) => n.why.startsWith(SUPERPOD_WHY))) nodesTaken.text = nodesTaken.text.replace('no cluster size given', 'the cluster size named not read');
  // "8x H100 nodes" with no count before: nodes of 8, at the default count, both said (QA: said only "no cluster size given",
  // where "2x H100 nodes" says how it was read, nodeReadings).
  else if (nodesTaken !== undefined && counts.perNodeOnly !== undefined && facts.gpusPerNode === counts.perNodeOnly.gpusPerNode) {
    const { written, gpusPerNode } = counts.perNodeOnly;
    const typed = new RegExp(String.raw`(?<![\w.])${gpusPerNode}\s*(?:[x×]|-\s*gpus?)\s*(?:\S+\s+){0,2}?(?:nodes?|machines?|servers?|boxes|hosts?|trays?|systems?|dgx\w*)\b`, 'i').exec(text)?.[0]
      ?? written.replace(HW_TOKEN, facts.gpu ?? 'GPU');
    nodesTaken.text = `"${typed}" read as nodes of ${countOf(gpusPerNode, 'GPU')}; no node count given: ${countOf(Number(nodesTaken.value), 'node')}`;
  }
  // A length given but not read: the default taken says so, never "no length given".
  for (const unread of [unreadLength, unreadContext]) {
    if (unread === undefined || intent !== 'serving') continue;
    const taken = defaults.find((d) => d.field === unread.field && facts[unread.field] === undefined && (unread.field === 'outputTokens' || facts.seqLength === undefined));
    if (taken !== undefined) taken.text = taken.text.replace('no length given', `"${unread.written}" not read as a length`);
  }

  // Any other number no reader took ("on 256 h10", "on 256 xyz"): said, never dropped unsaid; where it stands as a size
  // does ("on 256 …"), the default nodes say so too.
  const left = intent === 'help' || unreadSize !== undefined ? [] : leftNumbers(s.text, [...problems, ...notRead.map((n) => n.phrase)], defaults.map((d) => d.text));
  if (left.length > 0) {
    // A serving question's examples are serving's: "32 users" alone is no load (kv-cache.ts takeServedLoad).
    const examples = intent === 'serving' ? '"32 concurrent users", "32 requests of 8k tokens", "10 requests/s" or "on 8 H100"' : '"256 H100", "16 nodes", "2T tokens" or "in 10 days"';
    notRead.push({ phrase: left.map((l) => `"${asTyped(text, l.phrase)}"`).join(', '), why: `not understood: no reading takes these numbers; say e.g. ${examples}` });
  }
  const leftSize = left.find((l) => l.asSize);
  if (nodesTaken !== undefined && unreadSize === undefined && leftSize !== undefined) nodesTaken.text = nodesTaken.text.replace('no cluster size given', `"${asTyped(text, leftSize.phrase)}" not read as a cluster size; say e.g. "256 H100" or "32 nodes"`);
}
