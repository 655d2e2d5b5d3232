import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { collectiveCost, type CollectiveOp, type CollectiveRequest, type Fabric } from '@trainplan/collectives';
import { resolveScenario, validateScenario, type ScenarioInput } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { WIDGET_BUILD_OPTIONS } from '../src/build.ts';
import { ALGORITHM_NAME_CHECK, collectiveCostOfNcclsChoice, FORCED_ALGORITHM_TESTS, ncclOwnChoiceOnly } from '../src/nccl-own-choice.ts';
import { closingBracket } from '../src/strip-properties.ts';

const COLLECTIVE_COST = fileURLToPath(new URL('../../../packages/collectives/src/collective-cost.ts', import.meta.url));

/** @trainplan/collectives' collectiveCost bundled with collectiveCostOfNcclsChoice alone, the rest of the sources as they are. */
let bundled: Promise<typeof collectiveCost> | undefined;
const trimmedCollectiveCost = (): Promise<typeof collectiveCost> => (bundled ??= (async () => {
  const out = await build({
    stdin: { contents: "export { collectiveCost } from '@trainplan/collectives';", resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'ts' },
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent', plugins: [collectiveCostOfNcclsChoice],
  });
  const module = (await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0]!.text).toString('base64')}`)) as { collectiveCost: typeof collectiveCost };
  return module.collectiveCost;
})());

/** The fabric the protocol resolves for a cluster (its GPUs, system and network presets), as the planner costs it on. */
function fabricOf(cluster: ScenarioInput['cluster']): Fabric {
  const valid = validateScenario({ model: 'gpt3-1.3b', cluster, training: { globalBatchSize: 64 } });
  if (!valid.ok) throw new Error(valid.issues.map((i) => i.message).join('; '));
  const resolved = resolveScenario(valid.value);
  if (!resolved.ok) throw new Error(resolved.issues.map((i) => i.message).join('; '));
  return resolved.value.plan.fabric;
}

/**
 * Machines whose NCCL choices differ: HDR InfiniBand between NVSwitch nodes (ring, tree), NVLink SHARP within and across
 * H100 nodes (NVLS, NVLS tree), DGX-1's hybrid cube mesh of V100s, PCIe cards, and a GB200 NVL72 domain.
 */
const CLUSTERS: readonly ScenarioInput['cluster'][] = [
  { gpu: 'a100-80gb', nodes: 16 }, { gpu: 'h100-sxm', nodes: 4 }, { gpu: 'v100-32gb', nodes: 2 }, { gpu: 'a100-80gb-pcie', nodes: 2 },
  { gpu: 'gb200', network: 'nvl72', nodes: 18 },
];

/** The requests a plan makes of collectiveCost: its ops over groups within a node, across nodes and on one rank, small and large. */
function requests(fabric: Fabric, nodes: number): CollectiveRequest[] {
  const g = fabric.gpusPerNode;
  const groups = [{ ranks: 1, ranksPerNode: 1 }, { ranks: g, ranksPerNode: g }, { ranks: nodes * g, ranksPerNode: g }, { ranks: nodes, ranksPerNode: 1, concurrentGroupsPerNode: g }];
  const ops: CollectiveOp[] = ['all-reduce', 'all-gather', 'reduce-scatter', 'send-recv'];
  return groups.flatMap((group) => ops.flatMap((op) => [4096, 64 * 2 ** 20, 2 ** 30].map((bytes) => ({ op, bytes, group, fabric }))));
}

describe("collectiveCost with NCCL's own choice only (nccl-own-choice.ts)", () => {
  it('finds the name check and each test of a forced algorithm in collective-cost.ts as it is (else the build fails)', async () => {
    const source = await readFile(COLLECTIVE_COST, 'utf8');
    expect(source).toContain(ALGORITHM_NAME_CHECK);
    for (const test of FORCED_ALGORITHM_TESTS) expect(source).toMatch(new RegExp(test.source));
    // Each test becomes `false`; the candidates' own `.algorithm` is not one of them.
    const trimmed = ncclOwnChoiceOnly(source);
    for (const test of FORCED_ALGORITHM_TESTS) expect(trimmed).not.toMatch(new RegExp(test.source));
    expect(trimmed).toContain('candidate.algorithm !== algorithm');
    expect(trimmed).not.toContain('ALGORITHM_NAMES.includes');
  });

  it('refuses to build when the name check or a test of a forced algorithm is gone', () => {
    const check = `${ALGORITHM_NAME_CHECK}\n    throw new RangeError('x');\n  }`;
    expect(() => ncclOwnChoiceOnly("if (algorithm === 'hierarchical') {}\nif (algorithm !== 'auto') {}")).toThrow(`no "${ALGORITHM_NAME_CHECK}`);
    expect(() => ncclOwnChoiceOnly(`${check}\nif (algorithm !== 'auto') {}`)).toThrow("no \"(?<![.\\w$])algorithm === 'hierarchical'\"");
    expect(() => ncclOwnChoiceOnly(`${check}\nif (algorithm === 'hierarchical') {}`)).toThrow("no \"(?<![.\\w$])algorithm !== 'auto'\"");
    expect(ncclOwnChoiceOnly(`${check}\nif (algorithm === 'hierarchical') f();\nconst idle = algorithm !== 'auto' ? algorithm : x.algorithm !== 'auto';`))
      .toMatch(/\nif \(false\) f\(\);\nconst idle = false \? algorithm : x\.algorithm !== 'auto';$/);
  });

  it("costs every collective a plan asks for as the sources do, to the last digit, with the algorithm 'auto' or none", async () => {
    const trimmed = await trimmedCollectiveCost();
    let multiNode = 0;
    for (const cluster of CLUSTERS) {
      const fabric = fabricOf(cluster);
      for (const request of requests(fabric, cluster.nodes ?? 1)) {
        const sources = collectiveCost({ ...request, algorithm: 'auto' });
        expect(trimmed({ ...request, algorithm: 'auto' })).toEqual(sources);
        expect(trimmed(request)).toEqual(sources);
        if (request.group.ranks > request.group.ranksPerNode && request.op === 'all-reduce') multiNode += 1;
      }
    }
    // Across nodes the sources' own choices include NVLS and the tree (not only the ring): the choice itself is compared.
    expect(multiNode).toBeGreaterThan(0);
    const h100 = fabricOf({ gpu: 'h100-sxm', nodes: 4 });
    const chosen = new Set(requests(h100, 4).map((r) => collectiveCost(r).algorithm));
    expect([...chosen].some((a) => a.startsWith('nvls'))).toBe(true);
  });

  it('refuses a forced algorithm, which the sources cost, rather than answer it with NCCL\'s choice', async () => {
    const trimmed = await trimmedCollectiveCost();
    const fabric = fabricOf({ gpu: 'a100-80gb', nodes: 2 });
    const request: CollectiveRequest = { op: 'all-reduce', bytes: 2 ** 30, group: { ranks: 16, ranksPerNode: 8 }, fabric };
    for (const algorithm of ['ring', 'hierarchical'] as const) {
      expect(collectiveCost({ ...request, algorithm }).algorithm).toBe(algorithm);
      expect(() => trimmed({ ...request, algorithm })).toThrow(new RangeError(`algorithm '${algorithm}': the widget costs NCCL's own choice only (auto)`));
    }
  });

  it("is in the widget's bundle, whose every call of collectiveCost asks NCCL's own choice (the trim's premise)", async () => {
    const { metafile } = await build({ ...WIDGET_BUILD_OPTIONS, metafile: true });
    // The sources with code in the bundle (esbuild also loads those whose code all drops out).
    const inputs = Object.entries(Object.values(metafile.outputs)[0]!.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path);
    expect(inputs.some((path) => path.endsWith('packages/collectives/src/collective-cost.ts'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('packages/collectives/src/hierarchical-collective-cost.ts'))).toBe(false);
    const callers: string[] = [];
    for (const path of inputs.filter((p) => !p.endsWith('collectives/src/collective-cost.ts'))) {
      // The code alone: no comments (prose names the function), no imports or re-exports (which name it without calling it).
      const code = (await readFile(path, 'utf8')).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
        .replace(/^(?:import|export\s*(?:type\s*)?\{[^}]*\}\s*from)[^;]*;/gm, '');
      // Every mention of the functions, a call or not: one passed as a value could be called with any algorithm.
      for (const mention of code.matchAll(/(?<![\w.$])(?:collectiveCost|ncclPredictedCost)\b/g)) {
        const at = mention.index + mention[0].length;
        expect(code.slice(at, at + 2), `${path}: ${mention[0]} called with an object literal`).toBe('({');
        const end = closingBracket(code, at + 2);
        expect(end, path).toBeDefined();
        expect(code.slice(at + 2, end), path).toMatch(/\balgorithm: 'auto'/);
        callers.push(path.replace(/^.*packages\//, ''));
      }
    }
    expect(callers.sort()).toEqual(['planner/src/comm-time.ts', 'search/src/inference/decode-layer.ts']);
  });
});
