import { describe, expect, it } from 'vitest';
import { GPU_IDS, gpuById } from '../src/gpus.ts';
import { networkById } from '../src/networks.ts';
import { SYSTEM_IDS, SYSTEM_SOURCES, SYSTEMS, defaultSystemForGpu, systemById } from '../src/systems.ts';

const REQUIRED_SYSTEM_IDS = [
  'dgx-a100-80gb', 'dgx-a100-40gb', 'azure-ndm-a100-v4', 'dgx-h100', 'dgx-h200', 'dgx-b200', 'gb200-nvl72',
  'dgx-1-v100', 'jean-zay-a100', 'a100-80gb-pcie-8x', 'h100-pcie-8x', 'gh200-quad',
];
const PCIE_SYSTEMS = ['a100-80gb-pcie-8x', 'h100-pcie-8x'];
const ALL = Object.values(SYSTEMS);

describe('SYSTEMS', () => {
  it.each(REQUIRED_SYSTEM_IDS)('has the id %s', (id) => expect(systemById(id)?.id).toBe(id));

  it('lists exactly the ids it holds', () => expect([...SYSTEM_IDS].sort()).toEqual(Object.keys(SYSTEMS).sort()));

  it.each([...SYSTEM_IDS])('%s cites a source', (id) => expect(SYSTEM_SOURCES[id].title.trim()).not.toBe(''));

  it('cites exactly the systems it holds: no orphan citation', () => expect(Object.keys(SYSTEM_SOURCES).sort()).toEqual(Object.keys(SYSTEMS).sort()));

  it.each(ALL)('$id names a known GPU ($gpu) and a known network ($network)', (sys) => {
    expect(gpuById(sys.gpu)).toBeDefined();
    expect(networkById(sys.network)).toBeDefined();
  });

  // NVLink SHARP reduces inside a third-generation (Hopper) or later NVSwitch: a PCIe server has no NVSwitch.
  it.each(ALL)('$id has NVLink SHARP exactly when it has an NVSwitch and its GPUs are Hopper or Blackwell', (sys) => {
    const generation = gpuById(sys.gpu)!.generation;
    expect(sys.nvlinkSharp).toBe(sys.intraNode === 'nvswitch' && (generation === 'hopper' || generation === 'blackwell'));
  });

  it('wires DGX-1 as a hybrid cube-mesh, the quad GH200 node as a full mesh, the PCIe servers over PCIe, and every other system through NVSwitch', () => {
    const meshes: Readonly<Record<string, string>> = { 'dgx-1-v100': 'nvlink-hybrid-cube-mesh', 'gh200-quad': 'nvlink-full-mesh' };
    for (const sys of ALL) {
      const expected = meshes[sys.id] ?? (PCIE_SYSTEMS.includes(sys.id) ? 'pcie' : 'nvswitch');
      expect(sys.intraNode).toBe(expected);
    }
  });

  // JSC's JUPITER Booster node: 4 × GH200, 150 GB/s per direction between each pair (6 of a GPU's 18 NVLink4 links to each
  // of the other 3, so every link is used: 3 × 6 = 18), 4 × NDR200, one per GH200.
  it('builds the quad GH200 node of JUPITER\'s Booster: 4 GPUs, every GPU\'s links split evenly over its 3 peers, a NIC each', () => {
    const sys = systemById('gh200-quad')!;
    expect(sys).toMatchObject({ gpu: 'gh200', gpusPerNode: 4, intraNode: 'nvlink-full-mesh', nvlinkSharp: false, network: 'ndr200-ib-4x' });
    expect(gpuById('gh200')!.nvlinkCount % (sys.gpusPerNode - 1)).toBe(0);
    expect(networkById(sys.network)!.nicsPerNode).toBe(sys.gpusPerNode);
  });

  it.each(ALL)('$id is wired over PCIe exactly when its GPU has no NVLink to its peers', (sys) => {
    expect(sys.intraNode === 'pcie').toBe(gpuById(sys.gpu)!.nvlinkCount === 0);
  });

  it.each(ALL)('$id has no more GPUs per node than an NVLink domain of its network allows', (sys) => {
    const domain = networkById(sys.network)!.nvlinkDomainGpus ?? sys.gpusPerNode;
    expect(domain % sys.gpusPerNode).toBe(0);
  });

  it.each(['dgx', 'toString', ''])('systemById returns undefined for the unknown id %j', (id) => {
    expect(systemById(id)).toBeUndefined();
  });
});

describe('defaultSystemForGpu', () => {
  it.each([
    ['v100-32gb', 'dgx-1-v100'],
    ['a100-40gb', 'dgx-a100-40gb'],
    ['a100-80gb', 'dgx-a100-80gb'],
    ['a100-80gb-pcie', 'a100-80gb-pcie-8x'],
    ['h100-sxm', 'dgx-h100'],
    ['h100-pcie', 'h100-pcie-8x'],
    ['h200', 'dgx-h200'],
    ['gh200', 'gh200-quad'],
    ['b200', 'dgx-b200'],
    ['gb200', 'gb200-nvl72'],
  ])('maps %s to %s', (gpu, system) => expect(defaultSystemForGpu(gpu)?.id).toBe(system));

  it.each([...GPU_IDS])('the default system of %s carries that GPU', (gpu) => {
    expect(defaultSystemForGpu(gpu).gpu).toBe(gpu);
  });

  it.each(['tpu-v5', 'hasOwnProperty'])('returns undefined for the unknown GPU %j', (gpu) => {
    expect(defaultSystemForGpu(gpu)).toBeUndefined();
  });
});
