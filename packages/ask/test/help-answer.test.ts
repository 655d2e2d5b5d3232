import { gpuById } from '@trainplan/presets';
import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { GPU_NAMES } from '../src/answer/help-answer.ts';
import { HARDWARE_GPU_IDS } from '../src/lexicon/hardware.ts';
import { parse } from '../src/parse.ts';

/** The help's note of what the bot reads: models, GPUs, node types. */
const vocabulary = (): string => ask('help').notes.find((n) => n.startsWith('Models: ')) ?? '';

describe('the help names every GPU the bot reads (QA: it left out H100 PCIe, A100 PCIe and GH200)', () => {
  it.each(HARDWARE_GPU_IDS.map((id) => [id]))('%s, by its preset name less the maker and any aside', (id) => {
    // "NVIDIA H100 PCIe 80GB" → "H100 PCIe 80GB"; "NVIDIA GH200 Grace Hopper Superchip (96GB HBM3)" → "GH200 Grace Hopper Superchip".
    const name = gpuById(id)!.name.replace(/^NVIDIA\s+/, '').replace(/\s*\(.*\)$/, '');
    expect(vocabulary()).toMatch(new RegExp(`GPUs: (?:.*, )?${name}[,;]`));
  });

  it('names the PCIe cards and GH200 that the old list left out', () => {
    for (const name of ['A100 80GB PCIe', 'H100 PCIe 80GB', 'GH200 Grace Hopper Superchip']) expect(GPU_NAMES).toContain(name);
  });

  it.each(GPU_NAMES.map((name) => [name]))('"%s", as the help writes it, is read back as a GPU the lexicon reads', (name) => {
    const gpu = parse(`how long to train llama3-8b on 16 ${name} nodes`).parameters.gpu;
    expect(HARDWARE_GPU_IDS).toContain(gpu);
    expect(gpuById(gpu!)!.name).toContain(name);
  });

  // [as the help names it, as a question types it, the system preset read]
  it.each([
    ['GB200 NVL72', 'GB200 NVL72', 'gb200-nvl72'], ['8-GPU PCIe servers', 'H100 PCIe servers', 'h100-pcie-8x'], ['JUPITER', 'JUPITER', 'gh200-quad'],
    ['Selene', 'Selene', 'dgx-a100-80gb'], ['Jean Zay', 'Jean Zay', 'jean-zay-a100'],
  ])('the node type "%s" it names ("%s") is read as %s', (named, typed, system) => {
    expect(vocabulary()).toContain(named);
    expect(parse(`how long to train llama3-8b on 16 ${typed} nodes`).parameters.system).toBe(system);
  });

  it.each(['p5', 'ND H100 v5', 'a3-megagpu-8g'])('the cloud instance "%s" it names is read as H100 nodes', (name) => {
    expect(vocabulary()).toContain(name);
    expect(parse(`how long to train llama3-8b on 16 ${name} nodes`).parameters.gpu).toBe('h100-sxm');
  });
});
