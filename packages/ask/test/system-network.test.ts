import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import type { Answer } from '../src/answer/answer-types.ts';

const answerTo = (question: string): Answer => ask(question, { publicUrl: null });
const figure = (a: Answer, label: string): string | undefined => a.figures.find((f) => f.label === label)?.value;
/** A node's network answer, told by the figure only it gives. */
const isNetworkFacts = (a: Answer): boolean => a.figures.some((f) => f.label === 'Between nodes, per node per direction');

describe('a node\'s network, asked with no model (QA: refused, or answered with the GPU\'s memory bandwidth)', () => {
  it.each([
    'what network does a DGX H100 have?',
    'what interconnect does a dgx h100 use',
    'how many NICs does a DGX H100 have',
  ])('"%s": 8 × 400 Gb/s NDR = 400 GB/s a node per direction, SHARP, NVSwitch with NVLS', (question) => {
    const a = answerTo(question);
    expect({ kind: a.kind, ok: a.ok }).toEqual({ kind: 'answer', ok: true });
    // DGX H100 User Guide: 8 ConnectX-7 400 Gb/s compute ports. 400 Gb/s ÷ 8 bits = 50 GB/s a NIC; × 8 = 400 GB/s a node
    // (3,200 Gb/s), each way at once.
    expect(a.headline).toMatch(/^NVIDIA DGX H100 \(8 × H100 SXM5 80GB\): between nodes 8 × 400 Gb\/s InfiniBand NICs, 400 GB\/s \(3,200 Gb\/s\) a node per direction \(50 GB\/s a NIC\)/);
    expect(figure(a, 'NICs per node')).toBe('8 × 400 Gb/s (50 GB/s each, per direction)');
    expect(figure(a, 'Between nodes, per node per direction')).toBe('400 GB/s (3,200 Gb/s)');
    expect(figure(a, 'Fabric')).toBe('InfiniBand');
    // ConnectX adapter "sub 600 ns" + 3 switch hops × 130 ns (Quantum's port-to-port) = 990 ns.
    expect(figure(a, 'Network latency (one way)')).toBe('990 ns');
    // Quantum-2 switches have SHARPv3; the DGX H100's third-generation NVSwitches reduce too (NVLink SHARP).
    expect(figure(a, 'SHARP (in-network reduction)')).toMatch(/^yes \(NCCL CollNet, opt-in: NCCL_COLLNET_ENABLE=1\)$/);
    expect(figure(a, 'Within the node')).toBe('NVSwitch, 8 GPUs');
    expect(figure(a, 'NVLink SHARP (NVLS)')).toBe('yes');
    // H100 whitepaper: 18 NVLink 4 links × 25 GB/s one way = 450 GB/s a GPU.
    expect(a.headline).toContain('within the node NVSwitch, NVLink 450 GB/s a GPU per direction, with NVLink SHARP (NVLS)');
    // The GPU's peaks and memory were not asked: not listed, nor "figures for one GPU" said of a node's links.
    expect(figure(a, 'Peak BF16 (dense)')).toBeUndefined();
    expect(a.notes.filter((n) => /for one GPU/.test(n))).toEqual([]);
    expect(a.notes).toContainEqual(expect.stringMatching(/^Source \(network\): NVIDIA DGX H100 User Guide/));
  });

  it('"how much inter-node bandwidth per node on dgx-a100-80gb?": 8 × 200 Gb/s HDR = 200 GB/s a node, never the HBM\'s 2,039 GB/s', () => {
    const a = answerTo('how much inter-node bandwidth per node on dgx-a100-80gb?');
    expect(isNetworkFacts(a)).toBe(true);
    // DGX A100 User Guide: 8 single-port ConnectX-6 HDR 200 Gb/s; 8 × 25 GB/s = 200 GB/s (1,600 Gb/s).
    expect(figure(a, 'Between nodes, per node per direction')).toBe('200 GB/s (1,600 Gb/s)');
    expect(a.headline).not.toContain('2,039');
    // HDR Quantum switches: SHARPv2; the A100's second-generation NVSwitch does not reduce (no NVLS).
    expect(figure(a, 'SHARP (in-network reduction)')).toMatch(/^yes/);
    expect(figure(a, 'NVLink SHARP (NVLS)')).toBe('no');
  });

  it('"is there SHARP on the H100 system?": leads with SHARP, on the H100\'s usual node, said', () => {
    const a = answerTo('is there SHARP on the H100 system?');
    expect(a.kind).toBe('answer');
    expect(a.headline).toMatch(/^NVIDIA DGX H100 \(8 × H100 SXM5 80GB\): SHARP in-network reduction available \(NCCL uses it through CollNet, off unless enabled: NCCL_COLLNET_ENABLE=1\); between nodes/);
    expect(a.assumptions).toContainEqual(expect.stringMatching(/usual node taken: NVIDIA DGX H100 .*\(dgx-h100\)$/));
    // How to cost a collective with it, in a question that is answered so.
    const example = /"(all-reduce[^"]+with SHARP)"/.exec(a.notes.join(' '))?.[1];
    expect(example).toBeDefined();
    expect((answerTo(example ?? '').data as { collnet?: boolean }).collnet).toBe(true);
  });

  it('"what is the infiniband bandwidth of a dgx-1": 4 × 100 Gb/s EDR = 50 GB/s, no SHARP, a cube-mesh; no "which generation" asked back', () => {
    const a = answerTo('what is the infiniband bandwidth of a dgx-1');
    // DGX-1 whitepaper: four 100 Gb/s EDR ports: 4 × 12.5 GB/s = 50 GB/s (400 Gb/s).
    expect(figure(a, 'Between nodes, per node per direction')).toBe('50 GB/s (400 Gb/s)');
    // Switch-IB 2 has SHARPv1 only, which NCCL's CollNet cannot use; DGX-1 has no NVSwitch.
    expect(figure(a, 'SHARP (in-network reduction)')).toBe('no');
    expect(a.headline).toContain('no SHARP in-network reduction');
    expect(a.headline).toContain('within the node an NVLink hybrid cube-mesh (no NVSwitch');
    expect(a.notes.filter((n) => /InfiniBand generation/.test(n))).toEqual([]);
  });

  it('"does gb200-nvl72 support sharp": the 72-GPU NVLink domain, and 4 × 400 Gb/s a tray beyond it', () => {
    const a = answerTo('does gb200-nvl72 support sharp');
    // SuperPOD GB200 reference architecture: a tray of 4 GPUs with 4 ConnectX-7 400 Gb/s: 4 × 50 = 200 GB/s.
    expect(a.headline).toContain('beyond its 72-GPU NVLink domain 4 × 400 Gb/s NICs, 200 GB/s (1,600 Gb/s) a node per direction');
    expect(figure(a, 'SHARP (in-network reduction)')).toMatch(/^yes/);
  });

  it('NVLink asked of a node named says how its GPUs are wired', () => {
    expect(answerTo('what is the nvlink bandwidth of a dgx h100').headline)
      .toBe('H100 SXM5 80GB: NVLink 450 GB/s per direction (900 GB/s both ways together, 18 links); within NVIDIA DGX H100, NVSwitch.');
  });

  it.each([
    'how long to train llama3-70b on 64 h100 over HDR infiniband',
    'all-reduce 1 GiB on 4 DGX H100 nodes with SHARP',
  ])('a planning question naming a network is not answered with the node\'s links: "%s"', (question) => {
    expect(isNetworkFacts(answerTo(question))).toBe(false);
  });
});
