import { describe, expect, it } from 'vitest';
import { GPU_IDS, MODEL_IDS, NETWORK_IDS, SYSTEM_IDS } from '@trainplan/presets';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';

async function cli(args: string[]) {
  const io = fakeIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const CATALOGUES = { models: MODEL_IDS, gpus: GPU_IDS, systems: SYSTEM_IDS, networks: NETWORK_IDS } as const;

describe('trainplan presets', () => {
  it.each(Object.entries(CATALOGUES))('presets %s lists every id of the catalogue, each with its name, figures and source', async (kind, ids) => {
    const { code, out, err } = await cli(['presets', kind]);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out.startsWith(`${kind} (${ids.length}):\n`)).toBe(true);
    for (const id of ids) expect(out, id).toMatch(new RegExp(`^  ${id.replaceAll('.', '\\.')} +\\S.* · `, 'm'));
    expect(out.match(/^ +source: \S/gm)).toHaveLength(ids.length);
  });

  it('gives each figure its unit: a GPU\'s peak, memory and bandwidth, a model\'s parameters and sequence', async () => {
    const gpus = (await cli(['presets', 'gpus'])).out;
    expect(gpus).toMatch(/^  h100-sxm +NVIDIA H100 .* · 989 TFLOP\/s BF16 dense · 79\.\d GiB HBM at 3\.35 TB\/s · \d+ NVLinks · 700 W$/m);
    const models = (await cli(['presets', 'model'])).out;
    expect(models).toMatch(/^  llama3-70b +Llama 3 70B · 70B parameters · 80 layers, hidden 8,192, 64 heads \(8 KV\) · 8,192-token sequences$/m);
  });

  it('a model\'s parameters as its source states them, with no zeros it does not state (QA: "7.00B" for a nominal 7B)', async () => {
    const models = (await cli(['presets', 'models'])).out;
    expect(models).toMatch(/^  llama2-7b +Llama 2 7B · 7B parameters ·/m);
    // SC'21 Table 1 states 145.6B: four figures, not "146B".
    expect(models).toMatch(/^  megatron-145\.6b +Megatron GPT 145\.6B · 145\.6B parameters ·/m);
    expect(models).toMatch(/^  gpt3-1\.3b +GPT-3 XL · 1\.3B parameters ·/m);
  });

  it('with no catalogue lists all four; --json gives id, name, summary and source for each', async () => {
    const all = await cli(['presets']);
    expect(all.out.match(/^(models|gpus|systems|networks) \(\d+\):$/gm)).toEqual([
      `models (${MODEL_IDS.length}):`, `gpus (${GPU_IDS.length}):`, `systems (${SYSTEM_IDS.length}):`, `networks (${NETWORK_IDS.length}):`,
    ]);
    const json = JSON.parse((await cli(['presets', '--json'])).out);
    expect(Object.keys(json)).toEqual(['models', 'gpus', 'systems', 'networks']);
    const one = JSON.parse((await cli(['presets', 'networks', '--json'])).out);
    expect(one.map((p: { id: string }) => p.id)).toEqual([...NETWORK_IDS]);
    expect(Object.keys(one[0])).toEqual(['id', 'name', 'summary', 'source']);
    expect(one[0].source.title).toEqual(expect.any(String));
  });

  it('an unknown catalogue is a usage error with the one meant; the help has examples; the general help lists the command', async () => {
    expect(await cli(['presets', 'modle'])).toEqual({
      code: 2, out: '',
      err: 'trainplan: no preset catalogue \'modle\' (did you mean models?); known: models, gpus, systems, networks (usage: trainplan presets [models|gpus|systems|networks] [--json])\n',
    });
    const help = (await cli(['presets', '--help'])).out;
    expect(help).toContain('  trainplan presets models\n');
    expect((await cli(['--help'])).out).toMatch(/^ +presets +list the model, GPU, system and network presets/m);
  });
});
