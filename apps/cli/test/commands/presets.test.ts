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

/** The list's line for `id`, without its source line. */
const lineOf = (out: string, id: string): string => out.split('\n').find((l) => l.startsWith(`  ${id} `)) ?? '';

/**
 * The keys of the API's GPU preset (apps/api src/presets/preset-schemas.ts, gpuPresetSchema), in its order: the figures,
 * the source, then the summary line the list prints (an extension the API serves too).
 */
const API_GPU_KEYS = [
  'id', 'name', 'generation', 'peakFlopsPerSecond', 'hbmBytes', 'hbmBandwidthBytesPerSecond', 'smCount', 'l2Bytes', 'nvlink',
  'nvlinkCount', 'nvlinkBandwidthBytesPerSecond', 'tdpWatts', 'source', 'summary',
];

describe('trainplan presets', () => {
  it.each(Object.entries(CATALOGUES))('presets %s lists every id of the catalogue, each with its name, figures and source', async (kind, ids) => {
    const { code, out, err } = await cli(['presets', kind]);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out.startsWith(`${kind} (${ids.length}):\n`)).toBe(true);
    for (const id of ids) expect(out, id).toMatch(new RegExp(`^  ${id.replaceAll('.', '\\.')} +\\S.* · `, 'm'));
    expect(out.match(/^ +source: \S/gm)).toHaveLength(ids.length);
  });

  it('a GPU\'s line gives its dense BF16, FP8 and TF32 peaks, memory and its bandwidth, NVLink per direction and power', async () => {
    const gpus = (await cli(['presets', 'gpus'])).out;
    // H100 whitepaper Table 1, SXM5 dense: BF16 989.4, FP8 1978.9, TF32 494.7 TFLOPS; nvidia-smi 81,559 MiB / 1,024 = 79.6 GiB;
    // datasheet 3.35 TB/s = 3,350 GB/s; NVLink 4: 18 links × 25 GB/s a direction = 450 GB/s; 700 W.
    expect(lineOf(gpus, 'h100-sxm')).toMatch(/ · peak dense TFLOP\/s: 989 BF16, 1,979 FP8, 495 TF32 · 79\.6 GiB HBM at 3,350 GB\/s · NVLink 450 GB\/s per direction \(18 links\) · 700 W$/);
    // HGX B200 page, sparse ÷ 2: BF16 4.5 PF → 2,250, FP8 9 PF → 4,500, TF32 → 1,125 TFLOPS; 183,359 MiB / 1,024 = 179 GiB;
    // 7.7 TB/s; NVLink 5: 1.8 TB/s both ways over 18 links = 50 GB/s a link a direction, 900 GB/s a direction; 1,000 W.
    expect(lineOf(gpus, 'b200')).toMatch(/ · peak dense TFLOP\/s: 2,250 BF16, 4,500 FP8, 1,125 TF32 · 179 GiB HBM at 7,700 GB\/s · NVLink 900 GB\/s per direction \(18 links\) · 1,000 W$/);
    // A100 datasheet: BF16 312, TF32 156, no FP8; 1,555 GB/s for the 40GB part; NVLink 3: 12 × 25 GB/s = 300 GB/s.
    expect(lineOf(gpus, 'a100-40gb')).toMatch(/ · peak dense TFLOP\/s: 312 BF16, 156 TF32 · 39\.6 GiB HBM at 1,555 GB\/s · NVLink 300 GB\/s per direction \(12 links\) · 400 W$/);
    // V100 datasheet: FP16 tensor 125 TFLOPS, no BF16, FP8 or TF32; NVLink 2: 6 × 25 GB/s = 150 GB/s.
    expect(lineOf(gpus, 'v100-32gb')).toMatch(/ · peak dense TFLOP\/s: 125 FP16 · 31\.7 GiB HBM at 900 GB\/s · NVLink 150 GB\/s per direction \(6 links\) · 300 W$/);
  });

  it('each figure keeps one unit down the list (no PFLOP/s beside TFLOP/s, no TB/s beside GB/s, no ns beside µs)', async () => {
    const all = (await cli(['presets'])).out;
    expect(all).not.toMatch(/PFLOP\/s|TB\/s| ns /);
    const networks = (await cli(['presets', 'networks'])).out;
    // hardware/networks.ts: 0.6 µs ConnectX + 3 switch hops of 90 ns (EDR) or 130 ns (HDR, and NDR assumed no slower); Omni-Path 1 µs, RoCE 2 µs.
    expect(lineOf(networks, 'edr-ib-4x')).toContain(' × 12.5 GB/s a direction · 0.87 µs latency');
    expect(lineOf(networks, 'ndr-ib-8x')).toContain(' × 50 GB/s a direction · 0.99 µs latency');
    expect(lineOf(networks, 'omnipath-4x')).toContain(' · 1.0 µs latency');
    expect(lineOf(networks, 'roce-400g-8x')).toContain(' · 2.0 µs latency');
  });

  it('groups every figure of four digits or more by thousands ("1,000 W", not "1000 W")', async () => {
    const figures = (await cli(['presets'])).out.split('\n').filter((l) => !/^ +source: /.test(l));
    // A run of four digits standing alone; ids and names ("H100", "1008B", "WP-08437") are words, not figures.
    expect(figures.filter((l) => /(?<![\w.,-])\d{4,}(?![\w,])/.test(l))).toEqual([]);
  });

  it('a model\'s parameters as its source states them, with no zeros it does not state (QA: "7.00B" for a nominal 7B)', async () => {
    const models = (await cli(['presets', 'model'])).out;
    expect(models).toMatch(/^  llama3-70b +Llama 3 70B · 70B parameters · 80 layers, hidden 8,192, 64 heads \(8 KV\) · 8,192-token sequences$/m);
    expect(models).toMatch(/^  llama2-7b +Llama 2 7B · 7B parameters ·/m);
    // SC'21 Table 1 states 145.6B: four figures, not "146B".
    expect(models).toMatch(/^  megatron-145\.6b +Megatron GPT 145\.6B · 145\.6B parameters ·/m);
    expect(models).toMatch(/^  gpt3-1\.3b +GPT-3 XL · 1\.3B parameters ·/m);
  });

  it('presets <gpu id> shows every figure of that GPU and its source whole (QA: "h100-sxm" was refused as no catalogue)', async () => {
    const { code, out, err } = await cli(['presets', 'h100-sxm']);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out.startsWith('h100-sxm: NVIDIA H100 SXM5 80GB (GPU preset)\n')).toBe(true);
    // Whitepaper Table 1 (dense): FP8 1978.9, BF16 = FP16 989.4, TF32 494.7, FP32 66.9 TFLOPS.
    expect(out).toMatch(/^  Peak FP8, dense: +1,979 TFLOP\/s$/m);
    expect(out).toMatch(/^  Peak BF16, dense: +989 TFLOP\/s$/m);
    expect(out).toMatch(/^  Peak TF32, dense: +495 TFLOP\/s$/m);
    expect(out).toMatch(/^  Peak FP32, non-tensor: +66\.9 TFLOP\/s$/m);
    // nvidia-smi's 81,559 MiB / 1,024 = 79.6 GiB.
    expect(out).toMatch(/^  HBM: +79\.6 GiB, the capacity nvidia-smi reports$/m);
    // 18 × 25 GB/s = 450 GB/s a direction; NVIDIA's "900 GB/s" adds both.
    expect(out).toMatch(/^  NVLink: +450 GB\/s per direction, 900 GB\/s both ways together: 18 links of NVLink 4\.0 \(Hopper\), 25 GB\/s each$/m);
    expect(out).toMatch(/^Source: NVIDIA H100 Tensor Core GPU Architecture whitepaper; NVIDIA H100 datasheet\n  https:\/\/resources\.nvidia\.com\/\S+\n  Whitepaper V1\.04 \(final TFLOPS\), Table 1/m);
    // A precision the GPU lacks is said so, not left out: the A100 has no FP8.
    expect((await cli(['presets', 'a100-80gb'])).out).toMatch(/^  Peak FP8, dense: +not supported$/m);
  });

  it('presets <id> takes any system, network or model id too, in any case', async () => {
    const b200 = await cli(['presets', 'B200']);
    expect(b200.code).toBe(0);
    // NVLink 5: 18 links × 50 GB/s = 900 GB/s a direction, 1.8 TB/s both ways (the NVLink product page's figure).
    expect(b200.out).toMatch(/^  NVLink: +900 GB\/s per direction, 1,800 GB\/s both ways together: 18 links of NVLink 5\.0 \(Blackwell\), 50 GB\/s each$/m);
    expect(b200.out).toMatch(/^  TDP: +1,000 W$/m);
    const system = (await cli(['presets', 'dgx-h100'])).out;
    expect(system).toMatch(/^dgx-h100: NVIDIA DGX H100 \(8 × H100 SXM5 80GB\) \(system preset\)$/m);
    expect(system).toMatch(/^  GPUs a node: +8 × h100-sxm \(NVIDIA H100 SXM5 80GB\)$/m);
    expect(system).toMatch(/^  NVLink a GPU: +450 GB\/s per direction$/m);
    const network = (await cli(['presets', 'ndr-ib-8x'])).out;
    // 400 Gb/s ÷ 8 = 50 GB/s a NIC; 8 NICs = 400 GB/s a node.
    expect(network).toMatch(/^  NIC bandwidth: +50 GB\/s per direction$/m);
    expect(network).toMatch(/^  A node's NICs: +400 GB\/s per direction$/m);
    expect(network).toMatch(/^  Systems: +dgx-h100, dgx-h200, dgx-b200$/m);
    const model = (await cli(['presets', 'llama3-70b'])).out;
    // Dubey et al. 2024 Table 3: 80 layers, model dim 8,192, FFN dim 28,672, 64 heads, 8 KV heads.
    expect(model).toMatch(/^  Parameters: +70B, as published$/m);
    expect(model).toMatch(/^  FFN hidden size: +28,672$/m);
    expect(model).toMatch(/^  Attention heads: +64 \(8 KV heads, grouped-query\)$/m);
    expect(model).toMatch(/^Source: Dubey et al\. 2024/m);
  });

  it('an unknown id is a usage error naming the catalogues and the ids near it', async () => {
    expect(await cli(['presets', 'h100'])).toEqual({
      code: 2, out: '',
      err: 'trainplan: no preset catalogue or id \'h100\' (did you mean h100-sxm, h100-pcie or h100-pcie-8x?); catalogues: models, gpus, systems, networks '
        + '(trainplan presets <catalogue> lists its ids) (usage: trainplan presets [models|gpus|systems|networks|<id>] [--json])\n',
    });
    expect((await cli(['presets', 'modle'])).err).toContain('no preset catalogue or id \'modle\' (did you mean models?); catalogues: models, gpus, systems, networks');
    // Nothing near: no suggestion, the catalogues still listed.
    expect((await cli(['presets', 'mi300x'])).err).toMatch(/^trainplan: no preset catalogue or id 'mi300x'; catalogues: models, gpus, systems, networks /);
    expect((await cli(['presets', 'h100-sxm', 'b200'])).err).toContain('give one catalogue or preset id, got 2: h100-sxm b200');
  });

  it('--json gives each preset\'s figures in SI units named in the keys, as the API\'s presets answer does', async () => {
    const gpus = JSON.parse((await cli(['presets', 'gpus', '--json'])).out);
    expect(gpus.map((g: { id: string }) => g.id)).toEqual([...GPU_IDS]);
    const h100 = gpus.find((g: { id: string }) => g.id === 'h100-sxm');
    // The API's keys, the list's summary line last (which this JSON carried before it carried the figures, kept for scripts).
    expect(Object.keys(h100)).toEqual(API_GPU_KEYS);
    expect(h100.summary).toMatch(/^peak dense TFLOP\/s: 989 BF16/);
    // Whitepaper Table 1: 989.4 and 1978.9 TFLOPS; 81,559 MiB × 1,048,576 B; 3.35 TB/s; 18 × 25 GB/s.
    expect(h100).toMatchObject({
      peakFlopsPerSecond: { bf16: 989.4e12, fp8: 1978.9e12, tf32: 494.7e12 },
      hbmBytes: 85_520_809_984, hbmBandwidthBytesPerSecond: 3.35e12, nvlinkBandwidthBytesPerSecond: 450e9, tdpWatts: 700,
      source: { title: 'NVIDIA H100 Tensor Core GPU Architecture whitepaper; NVIDIA H100 datasheet' },
    });
    // NVLink 5: 18 × 50 GB/s.
    expect(gpus.find((g: { id: string }) => g.id === 'b200').nvlinkBandwidthBytesPerSecond).toBe(900e9);
    const one = JSON.parse((await cli(['presets', 'hdr-ib-8x', '--json'])).out);
    // 200 Gb/s ÷ 8 = 25 GB/s; 0.6 µs + 3 × 130 ns = 0.99 µs.
    expect(one).toMatchObject({ id: 'hdr-ib-8x', nicsPerNode: 8, nicBandwidthBytesPerSecond: 25e9, latencySeconds: 0.99e-6, inNetworkReduction: true });
    const all = JSON.parse((await cli(['presets', '--json'])).out);
    expect(Object.keys(all)).toEqual(['models', 'gpus', 'systems', 'networks']);
    expect(all.models.find((m: { id: string }) => m.id === 'llama3-70b')).toMatchObject({ layers: 80, hiddenSize: 8192, publishedParameters: 70e9 });
    expect(all.systems.find((s: { id: string }) => s.id === 'dgx-h100')).toMatchObject({ gpu: 'h100-sxm', gpusPerNode: 8, network: 'ndr-ib-8x' });
  });

  it('the help says --json is the API\'s JSON, summary with it, and prints no key beyond the API\'s (QA: the API lacked summary)', async () => {
    const help = (await cli(['presets', '--help'])).out.replace(/\s+/g, ' ');
    expect(help).toContain('the source (title, url, note) and summary, the line the list prints');
    expect(help).not.toContain('lacks');
    const h100 = JSON.parse((await cli(['presets', 'h100-sxm', '--json'])).out);
    expect(Object.keys(h100)).toEqual(API_GPU_KEYS);
    // The summary is the list's line for the id, after its name.
    expect(lineOf((await cli(['presets', 'gpus'])).out, 'h100-sxm')).toMatch(new RegExp(` · ${h100.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });

  it('the help has examples, an id among them; the general help lists the command', async () => {
    const help = (await cli(['presets', '--help'])).out;
    expect(help).toContain('  trainplan presets models\n');
    expect(help).toContain('  trainplan presets h100-sxm\n');
    expect((await cli(['--help'])).out).toMatch(/^ +presets +list the model, GPU, system and network presets/m);
  });
});
