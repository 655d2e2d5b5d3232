import { MODEL_IDS, modelById } from '@trainplan/presets';
import { nearestAll } from '@trainplan/protocol';
import { formatCountExact } from '@trainplan/units';
import { DECIMAL } from './numbers.ts';

/**
 * How a family and size written other than a preset's own was read, said in the answer rather than swapped unsaid.
 * QA: "llama3-71b" was planned as Llama 3 70B, "gpt3-176b" as GPT-3 175B and "llama3-7b" as Llama 3 8B (Llama 3 has
 * no 7B) with no word of it, the --json recording `"stated": {"model": "llama3-8b"}` as if typed; and "gpt3-13", a
 * size without its unit, was planned as GPT-3 175B, the family alone.
 */

/** The preset's name, "Llama 3 70B", else its id. */
const nameOf = (id: string): string => modelById(id)?.shape.name ?? id;

/** The preset's published parameters, exactly ("70B", "529.6B", "1.008T"): the size the answer plans, never rounded to the one asked. */
const parametersOf = (id: string): string => formatCountExact(modelById(id)?.publishedParameters ?? 0);

/**
 * "Llama 3 71B taken as Llama 3 70B (llama3-70b, 70B parameters), the nearest Llama 3 preset: none has 71B".
 * `asked` is the family and size as the answer names them ("Llama 3 71B"), `size` the size alone ("71B").
 */
export function offSizeReading(asked: string, size: string, label: string, id: string): string {
  return `${asked} taken as ${nameOf(id)} (${id}, ${parametersOf(id)} parameters), the nearest ${label} preset: none has ${size}`;
}

/**
 * Said after the reading of a size planned as a decoder of its own, where a preset of the family lies near it
 * ("llama3-7b": Llama 3 has no 7B, and 8B may be the one meant): "; the nearest Llama 3 preset is Llama 3 8B
 * (llama3-8b, 8B parameters): name it to plan it". '' where there is none.
 */
export const nearPresetNote = (label: string | undefined, id: string | undefined): string =>
  (id === undefined ? '' : `; the nearest ${label === undefined ? '' : `${label} `}preset is ${nameOf(id)} (${id}, ${parametersOf(id)} parameters): name it to plan it`);

/**
 * A number right after a family's name and a hyphen, with no unit: "gpt3-13", "llama3-" + "70", "nemotron-15"; never one a
 * hyphen goes on from ("llama-4-scout-17b-16e": a name's parts).
 */
const UNITLESS = new RegExp(String.raw`^(${DECIMAL})(?![\w.-])`);
const UNITS = ['b', 'm', 't'] as const;

type UnitlessSize = { length: number; model: string; assumed: string } | { length: number; problem: string };

/**
 * A family's name joined by a hyphen to a number with no unit ("gpt3-13", "llama3-70", "nemotron-15"), read as the
 * family's preset of that number with a unit (gpt3-13b), said; where the family has none ("gpt3-14"), declined with
 * the ids it is a slip of, as the CLI's `--model gpt3-175` is ("did you mean gpt3-175b?"). `matched` is the family's
 * name as the pattern took it ("gpt3", or "llama3-" with its hyphen), `rest` the text after it; undefined where no such
 * number follows. A number apart ("gpt3 13 nodes") is no size: only a hyphen joins one to the name.
 */
export function unitlessSize(matched: string, rest: string, prefixes: readonly string[]): UnitlessSize | undefined {
  const hyphen = matched.endsWith('-') ? '' : '-';
  if (hyphen === '-' && !rest.startsWith('-')) return undefined;
  const number = UNITLESS.exec(rest.slice(hyphen.length));
  if (number === null) return undefined;
  const typed = `${matched}${hyphen}${number[1]}`;
  const length = matched.length + hyphen.length + number[0].length;
  // Families in preference order (models.ts FAMILY_PREFERENCE), each unit in the order preset ids use them most.
  const ids = prefixes.flatMap((p) => UNITS.map((u) => `${p}${number[1]}${u}`)).filter((id) => (MODEL_IDS as readonly string[]).includes(id));
  const [model, ...others] = ids;
  if (model !== undefined) {
    const also = others.length === 0 ? '' : `; also that size: ${others.join(', ')} (name one to plan it)`;
    return { length, model, assumed: `"${typed}" taken as ${model} (${nameOf(model)}): a size is written with its unit${also}` };
  }
  const meant = nearestAll(typed, MODEL_IDS);
  const didYouMean = meant.length === 0 || meant.length > 3 ? '' : ` (did you mean ${meant.join(' or ')}?)`;
  return { length, problem: `"${typed}" is not a preset id${didYouMean}: a size is written with its unit, "${number[1]}b" for ${number[1]} billion parameters` };
}
