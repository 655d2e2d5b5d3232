import { nearest } from '@trainplan/protocol';
import {
  GPUS, GPU_IDS, GPU_SOURCES, MODELS, MODEL_IDS, MODEL_SOURCES, NETWORKS, NETWORK_IDS, NETWORK_SOURCES, SYSTEMS, SYSTEM_IDS, SYSTEM_SOURCES,
} from '@trainplan/presets';
import { formatBandwidth, formatBytes, formatCount, formatFlops, formatSeconds } from '@trainplan/units';
import type { Command } from '../command.ts';
import { commandFlags, usageError } from '../errors.ts';
import { EXIT } from '../exit-codes.ts';
import { type FlagSpec } from '../flags.ts';
import { grouped } from '../format/count-text.ts';
import { usageLine } from '../format/usage-line.ts';
import type { CliIo } from '../io.ts';

const SYNOPSIS = 'trainplan presets [models|gpus|systems|networks] [--json]';

const USAGE = `${usageLine(SYNOPSIS)}

List the presets a request names by id (--model, --gpu, --network): each id with its name, its key
figures with their units, and the source its figures are taken from. The same catalogues, from
@trainplan/presets, as the API serves at GET /v1/presets/{models,gpus,systems,networks} (whose JSON
carries every figure). A system id (dgx-h100) goes where a GPU id does: a node of its GPUs, its
NVLink and its network.

Options:
      --json     print the list as JSON: for each preset its id, name, summary and source (title,
                 url, note); without a catalogue, an object of the four lists
  -h, --help     show this help

Examples:
  trainplan presets models
  trainplan presets gpus --json
  trainplan presets
`;

const FLAGS: Record<string, FlagSpec> = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** One preset as the list shows it: its id, name, key figures in words, and the source it cites. */
export interface PresetLine {
  id: string;
  name: string;
  summary: string;
  source: { title: string; url?: string; note?: string };
}

/**
 * "70B", "1.3B", "7B": a count of parameters as a model is named, its source's nominal figure with no zeros it does not
 * state (QA: "7.00B" claimed three figures of a nominal "7B").
 */
const compact = (n: number): string => formatCount(n, 4).replace(/\s+/g, '').replace(/(\.\d*?)0+(?=\D|$)/, '$1').replace(/\.(?=\D|$)/, '');

/** The catalogues in the API's order (apps/api's PRESET_KINDS), each preset in its catalogue's order. */
export const PRESET_LINES = {
  models: MODEL_IDS.map((id): PresetLine => {
    const { shape, publishedParameters } = MODELS[id]!;
    const heads = `${grouped(shape.attentionHeads)} heads${shape.kvHeads !== undefined && shape.kvHeads !== shape.attentionHeads ? ` (${grouped(shape.kvHeads)} KV)` : ''}`;
    return {
      id, name: shape.name,
      summary: `${compact(publishedParameters)} parameters · ${shape.layers} layers, hidden ${grouped(shape.hiddenSize)}, ${heads} · ${grouped(shape.seqLength)}-token sequences`,
      source: MODEL_SOURCES[id],
    };
  }),
  gpus: GPU_IDS.map((id): PresetLine => {
    const g = GPUS[id]!;
    // The precision training runs at where the GPU has it (BF16), else FP16 (V100).
    const [precision, peak] = g.peakFlops.bf16 !== undefined ? ['BF16', g.peakFlops.bf16] : ['FP16', g.peakFlops.fp16 ?? 0];
    return {
      id, name: g.name,
      summary: `${formatFlops(peak)} ${precision} dense · ${formatBytes(g.hbmBytes)} HBM at ${formatBandwidth(g.hbmBandwidth)} · ${g.nvlinkCount} NVLinks · ${g.tdpWatts} W`,
      source: GPU_SOURCES[id],
    };
  }),
  systems: SYSTEM_IDS.map((id): PresetLine => {
    const s = SYSTEMS[id]!;
    return {
      id, name: s.name,
      summary: `${s.gpusPerNode} × ${s.gpu} a node · ${s.intraNode}${s.nvlinkSharp ? ' with NVLink SHARP' : ''} · network ${s.network}`,
      source: SYSTEM_SOURCES[id],
    };
  }),
  networks: NETWORK_IDS.map((id): PresetLine => {
    const n = NETWORKS[id]!;
    const domain = n.nvlinkDomainGpus === undefined ? '' : ` · NVLink domain of ${n.nvlinkDomainGpus} GPUs`;
    return {
      id, name: n.name,
      summary: `${n.kind}: ${n.nicsPerNode} NICs a node × ${formatBandwidth(n.nicBandwidth)} a direction · ${formatSeconds(n.latency)} latency${n.inNetworkReduction ? ' · in-network reduction (SHARP)' : ''}${domain}`,
      source: NETWORK_SOURCES[id],
    };
  }),
} as const;

export type PresetCatalogue = keyof typeof PRESET_LINES;
const CATALOGUES = Object.keys(PRESET_LINES) as PresetCatalogue[];

/** "models", or "model" as one of them is said: the catalogue meant, else undefined. */
function catalogueOf(word: string): PresetCatalogue | undefined {
  const w = word.toLowerCase();
  return CATALOGUES.find((c) => c === w || c === `${w}s`);
}

/** One catalogue as text: a heading, then each id padded to a column, its name and figures, and its source on the next line. */
function catalogueText(kind: PresetCatalogue): string {
  const lines = PRESET_LINES[kind];
  const width = Math.max(...lines.map((p) => p.id.length));
  return [`${kind} (${lines.length}):`, ...lines.flatMap((p) => [
    `  ${p.id.padEnd(width)}  ${p.name} · ${p.summary}`,
    `  ${''.padEnd(width)}  source: ${p.source.title}`,
  ])].join('\n');
}

const usageFailure = (io: CliIo, message: string): number => usageError(io, SYNOPSIS, message);

export const presetsCommand: Command = {
  name: 'presets',
  summary: 'list the model, GPU, system and network presets, with their figures and sources',
  usage: USAGE,
  flags: FLAGS,
  async run(argv, io) {
    const parsed = commandFlags(io, argv, { flags: FLAGS, usage: USAGE, synopsis: SYNOPSIS }, { positionals: true });
    if (typeof parsed === 'number') return parsed;
    if (parsed.positionals.length > 1) return usageFailure(io, `give one catalogue, got ${parsed.positionals.length}: ${parsed.positionals.join(' ')}`);
    const word = parsed.positionals[0];
    const kind = word === undefined ? undefined : catalogueOf(word);
    if (word !== undefined && kind === undefined) {
      const meant = nearest(word.toLowerCase(), CATALOGUES);
      return usageFailure(io, `no preset catalogue '${word}'${meant === undefined ? '' : ` (did you mean ${meant}?)`}; known: ${CATALOGUES.join(', ')}`);
    }
    const kinds = kind === undefined ? CATALOGUES : [kind];
    if (parsed.values.json === true) {
      const json = kind === undefined ? PRESET_LINES : PRESET_LINES[kind];
      io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    } else io.stdout(`${kinds.map(catalogueText).join('\n\n')}\n`);
    return EXIT.ok;
  },
};
