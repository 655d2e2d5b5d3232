import type { NotRead } from '../question.ts';
import type { Scanner } from './quantities.ts';

/**
 * Settings a question may state that no plan models: power, energy, goodput and failures (an uptime is read: uptime.ts), epochs,
 * a layer count. Dropout, the attention kernel and a share of memory are read (dropout.ts, attention-kernel.ts,
 * memory-fraction.ts), and said where an answer does not plan them (parse/switches-planned.ts). Each is taken out of the
 * text (so "at 700W" is never 700 weeks, nor "90% goodput" a percentage read elsewhere) and said back as not read, with
 * why: never dropped unsaid.
 */

const PERCENT = String.raw`\d+(?:\.\d+)?\s*%`;

/** Why "a DGX SuperPOD" is no cluster size (parse.ts says the default nodes' size was not read from it). */
export const SUPERPOD_WHY = 'a DGX SuperPOD is no one size';
/** Why energy (and a GPU's power asked in words: "how much power does … draw") is not read into a plan; a GPU's own figures give its TDP (answer/gpu-facts.ts). */
export const ENERGY_NOT_MODELLED = 'energy is not modelled: the plans give time, GPU-hours and cost; a GPU\'s power is on its datasheet';

/** Why a count of epochs is not read: a plan's budget is its tokens, and the dataset's size is not given. */
const EPOCHS_NOT_READ = 'epochs are not read: a plan counts the tokens it trains on; give them, e.g. "3T tokens" for 3 epochs of 1T';

const UNMODELLED: readonly { pattern: RegExp; why: string }[] = [
  // Before counts: "a DGX SuperPOD" is no one DGX node (NODE_NOUN's "dgx").
  {
    pattern: /\b(?:(?:an?|one|the)\s+)?(?:nvidia\s+)?(?:dgx[\s-]*)?(?:HW\s*)?superpods?\b/,
    why: `${SUPERPOD_WHY}: NVIDIA's reference architecture builds it of scalable units of 32 DGX nodes (256 GPUs), one to several; say the nodes, e.g. "32 DGX H100"`,
  },
  // Before energy and prices: "at $0.10/kWh" is electricity's price, never a price no pattern reads (the whole question was refused).
  {
    pattern: /(?:\b(?:at|with|assuming)\s+)?(?:[$€£]\s*)?\d*(?:\.\d+)?\s*(?:cents?|¢)?\s*(?:\/|per|an?)\s*[kmg]?wh\b/,
    why: 'an electricity price is not modelled: energy is not, so the plans give time, GPU-hours and cost at a GPU-hour price',
  },
  // Before power: "MWh" is energy, never "M W" of power. "How much power does … draw": power asked, never read.
  {
    pattern: /\b(?:in\s+)?\d*(?:\.\d+)?\s*[kmg]?wh\b|\b(?:energy|electricity|power(?![\s-]*of\b)(?:\s+(?:use|usage|consumption|draw|bill))?)\b/,
    why: ENERGY_NOT_MODELLED,
  },
  // A number before W, kW, MW, watts is power, never a duration ("at 700W per GPU" was 700 weeks).
  {
    pattern: /(?:\bat\s+)?(?<![\w.])\d+(?:\.\d+)?\s*(?:[kmg]?w|watts?|kilowatts?|megawatts?)\b(?!\/)(?:\s+(?:per|a|each|\/)\s*(?:gpu|node|HW))?/,
    why: 'power is not modelled: the plans give time, GPU-hours and cost',
  },
  // "How much CO2 …", "carbon footprint": no plan has an emissions figure (it would need energy and a grid's intensity).
  {
    pattern: /\b(?:co2e?|carbon(?:[\s-]+(?:footprint|emissions?|intensity))?|(?:greenhouse[\s-]+gas\s+)?emissions?)\b/,
    why: 'emissions are not modelled: they need energy, which is not modelled either; the plans give time, GPU-hours and cost',
  },
  {
    pattern: new RegExp(String.raw`(?:\b(?:with|at|assuming)\s+)?(?:(?:an?\s+)?${PERCENT}\s*)?\bgoodput\b(?:\s+(?:of\s+)?${PERCENT})?`),
    why: 'goodput is not read (its usual measures count the model\'s efficiency too, which the plans compute): say "at 90% uptime" for the share of wall-clock time spent training',
  },
  {
    pattern: new RegExp(String.raw`(?:\b(?:assuming|with|at)\s+)?(?:${PERCENT}\s+(?:of\s+(?:the\s+)?(?:time|gpu[\s-]*hours)\s+)?(?:is\s+|being\s+)?(?:lost\s+(?:to|from|in)\s+)?)?\b(?:node\s+)?(?:failures?|downtime|interruptions?|restarts?)\b|(?:\b(?:with|at|assuming)\s+)?(?:an?\s+)?${PERCENT}\s*(?:availability|uptime)\b|\b(?:availability|uptime)\s+(?:of\s+)?${PERCENT}`),
    why: 'failures are not counted one by one: say the share of time they take, e.g. "with 10% downtime" or "at 90% uptime"',
  },
  // "a 34B model with 60 layers": no plan takes a layer count from a question (custom-model.ts picks the one nearest the size).
  {
    pattern: /\b(?:with\s+)?\d+\s+(?:transformer\s+|decoder\s+)?layers\b/,
    why: "a layer count is not taken: a preset keeps its own, and a size no preset has takes the count that lands nearest the size, said with its shape",
  },
  // "for 3 epochs", "epochs=2": a plan trains a number of tokens, never passes over a dataset whose size it is not told.
  {
    pattern: /(?:\b(?:for|over|at|after|in)\s+)?(?:(?<![\w.])\d+(?:\.\d+)?\s*epochs?\b|\bepochs?\s*(?:=|:|of)?\s*\d+(?:\.\d+)?(?![\w.]))/,
    why: EPOCHS_NOT_READ,
  },
  // "at ep 3": an epoch, where no capitals, setting or experts make it expert parallelism (unmodelled-moe.ts takes those first).
  {
    pattern: /(?:\b(?:for|over|at|after|in)\s+)?\bep\s*\d+(?![\w.])/,
    why: `"ep" taken as an epoch, not expert parallelism, which is written "EP 8" or "expert parallelism 8" and declined, MoE not being modelled; ${EPOCHS_NOT_READ}`,
  },
];

/**
 * The unmodelled settings the text states, each taken out of it, quoted as `typed` (the question before normalising)
 * holds it; one note per setting ("energy … in MWh": "energy", "in MWh").
 */
export function takeUnmodelledSettings(s: Scanner, typed: (phrase: string) => string): NotRead[] {
  const out: NotRead[] = [];
  for (const { pattern, why } of UNMODELLED) {
    const phrases: string[] = [];
    for (let m = s.take(pattern); m !== undefined; m = s.take(pattern)) phrases.push(`"${typed(m[0].trim())}"`);
    if (phrases.length > 0) out.push({ phrase: phrases.join(', '), why });
  }
  return out;
}
