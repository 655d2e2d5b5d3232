import { GPU_IDS } from '@trainplan/presets';
import { matchHardware, matchUnmodelledHardware } from '../lexicon/hardware.ts';
import type { InstanceMatch } from '../lexicon/instances.ts';
import type { Match } from '../lexicon/match.ts';
import { HW_TOKEN } from '../lexicon/quantities.ts';
import { asTyped } from './as-typed.ts';
import type { ParseState } from './state.ts';

/** What a count of cards or of their nodes is said in: "16 nodes of mi300x", "16 mi300x nodes", "2 3090 gpus". */
const NODE_WORDS = String.raw`nodes?|servers?|machines?|boxes|hosts?`;
const COUNT_BEFORE_CARD = new RegExp(String.raw`(?<![\w.])\d+(?:\.\d+)?k?\s*(?:x\s*)?(?:(?:${NODE_WORDS})\s+(?:of\s+)?(?:\d+\s*(?:x\s*)?)?)?$`);
const UNIT_AFTER_CARD = new RegExp(String.raw`^s?\s*(?:(?:${NODE_WORDS}|gpus?|cards?)\b|x\s*\d+(?![\w.]))`);

/**
 * An unmodelled card with the count written beside it ("64 mi300x", "64x mi300x", "16 nodes of mi300x", "16 mi300x nodes",
 * "8x 4090"): the span to blank, so that its count is never taken as the cluster size of the GPU that is modelled.
 */
function withCount(scanned: string, card: Match): Match {
  const before = COUNT_BEFORE_CARD.exec(scanned.slice(0, card.index));
  const after = UNIT_AFTER_CARD.exec(scanned.slice(card.index + card.length));
  const index = before === null ? card.index : before.index;
  return { index, length: card.index + card.length + (after?.[0].length ?? 0) - index };
}

/**
 * An accelerator no preset models, looked for where no instance type is named: alone, it is refused and its name made the
 * GPU's marker; beside a GPU a preset models, it is blanked with its count, an aside said not read (settings-read.ts).
 */
export function readUnmodelledCard(st: ParseState, instance: InstanceMatch | undefined) {
  const { s, text, problems } = st;
  // An accelerator no preset models is named back, never read as the nearest preset.
  const unmodelled = instance === undefined ? matchUnmodelledHardware(s.text) : undefined;
  // Beside a GPU a preset models ("on 64 H100? I also own a 4090", "H100 vs MI300X"), the question is answered for that
  // one and the other said as not modelled; alone, it is the answer (QA: the whole question was refused for the aside).
  const besideModelled = unmodelled !== undefined
    && matchHardware(s.text.slice(0, unmodelled.index) + ' '.repeat(unmodelled.length) + s.text.slice(unmodelled.index + unmodelled.length)) !== undefined;
  const unmodelledWhy = unmodelled === undefined ? ''
    : `${unmodelled.name} is not ${unmodelled.unknown ? 'a known GPU' : 'modelled'}${unmodelled.modelled === undefined ? '' : `: ${unmodelled.modelled}`}; the GPU presets are ${GPU_IDS.join(', ')}`;
  // The card's own count goes with it ("64 mi300x or 8 h100": QA planned 64 H100 against 8, the 64 the MI300X's).
  const aside = unmodelled !== undefined && besideModelled ? withCount(s.text, unmodelled) : undefined;
  const unmodelledAside = aside === undefined ? undefined : `"${asTyped(text, s.text.slice(aside.index, aside.index + aside.length).trim().replace(/\s+/g, ' '))}"`;
  if (unmodelled !== undefined) {
    if (aside !== undefined) s.blank(aside);
    else {
      s.replace(unmodelled, ` ${HW_TOKEN} `);
      problems.push(unmodelledWhy);
    }
  }
  return { unmodelled, besideModelled, unmodelledWhy, unmodelledAside };
}
