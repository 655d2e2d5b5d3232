import { didYouMean } from '@trainplan/protocol';
import type { Command } from '../command.ts';
import { commandFlags, usageError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { type FlagSpec } from '../flags.ts';
import { usageLine } from '../format/usage-line.ts';
import type { CliIo } from '../io.ts';
import { presetDetailText } from './presets-detail.ts';
import { PRESET_JSON } from './presets-json.ts';
import { CATALOGUES, catalogueText, type PresetCatalogue } from './presets-list.ts';

const SYNOPSIS = 'trainplan presets [models|gpus|systems|networks|<id>] [--json]';

const USAGE = `${usageLine(SYNOPSIS)}

List the presets a request names by id (--model, --gpu, --network): each id with its name, its key
figures with their units, and the source its figures are taken from. The same catalogues, from
@trainplan/presets, as the API serves at GET /v1/presets/{models,gpus,systems,networks}. A system
id (dgx-h100) goes where a GPU id does: a node of its GPUs, its NVLink and its network.

With an id (h100-sxm, dgx-h100, ndr-ib-8x, llama3-70b): that preset's every figure, and its source
whole (title, address, and which figures were taken from it).

Options:
      --json     print the presets as the API's JSON (GET /v1/presets/{kind}): every figure, SI
                 units in the key names (hbmBytes, nvlinkBandwidthBytesPerSecond), the source
                 (title, url, note) and summary, the line the list prints; a catalogue as a
                 list, an id as one object, nothing as an object of the four lists
  -h, --help     show this help

Examples:
  trainplan presets models
  trainplan presets gpus --json
  trainplan presets h100-sxm
  trainplan presets
`;

const FLAGS: Record<string, FlagSpec> = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** "models", or "model" as one of them is said: the catalogue meant, else undefined. */
function catalogueOf(word: string): PresetCatalogue | undefined {
  const w = word.toLowerCase();
  return CATALOGUES.find((c) => c === w || c === `${w}s`);
}

/** The catalogue holding the preset `word` names, in any case ("H100-SXM" as --gpu reads it), and its id; else undefined. */
function presetOf(word: string): { kind: PresetCatalogue; id: string } | undefined {
  const w = word.toLowerCase();
  for (const kind of CATALOGUES) {
    const id = PRESET_JSON[kind].find((p) => p.id.toLowerCase() === w)?.id;
    if (id !== undefined) return { kind, id };
  }
  return undefined;
}

/** Every catalogue's name and every preset id, the words `presets` takes. */
const WORDS = [...CATALOGUES, ...CATALOGUES.flatMap((kind) => PRESET_JSON[kind].map((p) => p.id))];
/** ' (did you mean h100-sxm?)' or ' (did you mean h100-sxm or h200?)' for a slip, else '': protocol's, as for an unknown id in a scenario. */
const meant = (word: string): string => didYouMean(word, WORDS);

const usageFailure = (io: CliIo, message: string): number => usageError(io, SYNOPSIS, message);

export const presetsCommand: Command = {
  name: 'presets',
  summary: 'list the model, GPU, system and network presets, with their figures and sources',
  usage: USAGE,
  flags: FLAGS,
  async run(argv, io) {
    const parsed = commandFlags(io, argv, { flags: FLAGS, usage: USAGE, synopsis: SYNOPSIS }, { positionals: true });
    if (typeof parsed === 'number') return parsed;
    if (parsed.positionals.length > 1) return usageFailure(io, `give one catalogue or preset id, got ${parsed.positionals.length}: ${parsed.positionals.join(' ')}`);
    const json = parsed.values.json === true;
    const word = parsed.positionals[0];
    if (word === undefined) {
      io.stdout(json ? `${JSON.stringify(PRESET_JSON, null, 2)}\n` : `${CATALOGUES.map(catalogueText).join('\n\n')}\n`);
      return EXIT.ok;
    }
    const kind = catalogueOf(word);
    if (kind !== undefined) {
      io.stdout(json ? `${JSON.stringify(PRESET_JSON[kind], null, 2)}\n` : `${catalogueText(kind)}\n`);
      return EXIT.ok;
    }
    const preset = presetOf(word);
    if (preset === undefined) {
      return usageFailure(io, `no preset catalogue or id '${word}'${meant(word)}; catalogues: ${CATALOGUES.join(', ')} (trainplan presets <catalogue> lists its ids)`);
    }
    const one = PRESET_JSON[preset.kind].find((p) => p.id === preset.id);
    io.stdout(json ? `${JSON.stringify(one, null, 2)}\n` : `${presetDetailText(preset.kind, preset.id)}\n`);
    return EXIT.ok;
  },
};
