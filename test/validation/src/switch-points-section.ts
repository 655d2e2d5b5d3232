import { collectiveCost, ncclCandidates, type CommGroup, type Fabric } from '@trainplan/collectives';
import { GiB, MB, MiB } from '@trainplan/units';
import { fabric } from './collectives-section.ts';
import type { ValidationSection } from './sections.ts';

/**
 * Where NCCL's model switches algorithm or protocol for an all-reduce, against the sizes reference
 * §7.9(h) quotes. The reference gives no tolerance for a switch point; a switch is where two
 * predicted times cross, so the report also shows how far apart the two candidates' times are at the
 * quoted size, against §7.9's busbw tolerance for that size (±15% below 256 MiB, ±5% from it).
 */
interface SwitchPoint {
  readonly what: string;
  readonly fabric: () => Fabric;
  readonly group: CommGroup;
  readonly from: string;
  readonly to: string;
  readonly quotedMB: number;
}

const a100 = () => fabric('a100-80gb', 'dgx-a100-80gb', 'hdr-ib-8x');
const h100 = () => fabric('h100-sxm', 'dgx-h100', 'ndr-ib-8x');
const h100RingOnly = (): Fabric => ({ ...h100(), nvlinkSharp: false });
const node8 = { ranks: 8, ranksPerNode: 8 };
const nodes16 = { ranks: 128, ranksPerNode: 8 };

export const SWITCH_POINTS: readonly SwitchPoint[] = [
  { what: '8 × A100: LL → LL128', fabric: a100, group: node8, from: 'ring/LL', to: 'ring/LL128', quotedMB: 2.4 },
  { what: '8 × A100: LL128 → Simple', fabric: a100, group: node8, from: 'ring/LL128', to: 'ring/Simple', quotedMB: 27 },
  { what: '8 × H100 with NVLS: LL → NVLS', fabric: h100, group: node8, from: 'ring/LL', to: 'nvls/Simple', quotedMB: 1.2 },
  { what: '8 × H100 ring only: LL → LL128', fabric: h100RingOnly, group: node8, from: 'ring/LL', to: 'ring/LL128', quotedMB: 4 },
  { what: '8 × H100 ring only: LL128 → Simple', fabric: h100RingOnly, group: node8, from: 'ring/LL128', to: 'ring/Simple', quotedMB: 39 },
  { what: '16 × DGX A100: Tree/LL → Tree/LL128', fabric: a100, group: nodes16, from: 'tree/LL', to: 'tree/LL128', quotedMB: 0.3 },
  { what: '16 × DGX A100: Tree → Ring (quoted 110–185 MB)', fabric: a100, group: nodes16, from: 'tree/LL128', to: 'ring/LL128', quotedMB: 110 },
  { what: '16 × DGX A100: Ring/LL128 → Ring/Simple', fabric: a100, group: nodes16, from: 'ring/LL128', to: 'ring/Simple', quotedMB: 620 },
];

export const choiceAt = (f: Fabric, group: CommGroup, bytes: number): string => {
  const c = collectiveCost({ op: 'all-reduce', bytes, group, fabric: f });
  return `${c.algorithm}/${c.protocol}`;
};

/** The first size (scanning up by 0.5% from a tenth of the quoted one) at which the model chooses `to`. */
export function modelSwitchBytes(p: SwitchPoint, f: Fabric): number {
  for (let bytes = MB(p.quotedMB) / 10; bytes < GiB(16); bytes *= 1.005) if (choiceAt(f, p.group, bytes) === p.to) return bytes;
  return Number.NaN;
}

/** |t_from / t_to − 1| at `bytes`: how far the model is from indifferent between the two there. */
export function candidateGap(p: SwitchPoint, f: Fabric, bytes: number): number {
  const all = ncclCandidates({ op: 'all-reduce', bytes, group: p.group, fabric: f });
  const time = (choice: string) => all.find((c) => `${c.algorithm}/${c.protocol}` === choice)?.seconds ?? Number.NaN;
  return Math.abs(time(p.from) / time(p.to) - 1);
}

export const bandTolerance = (bytes: number) => (bytes >= MiB(256) ? 0.05 : 0.15);
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

export const switchPointsSection: ValidationSection = {
  name: 'switch-points',
  run() {
    const markdown = ['## Collectives: NCCL switch points', '',
      'Where the model switches (algorithm, protocol) for an all-reduce, against the sizes collectives-reference §7.9(h) quotes for',
      'NCCL\'s model. The reference sets no tolerance for a switch point. At a switch two predicted times cross, so the last columns',
      'show how far apart the two candidates\' predicted times are at the quoted size, against §7.9\'s busbw tolerance for that size:',
      'a few per cent of difference in time moves a crossing by tens of per cent in size, because the curves meet at a shallow angle.', '',
      '| switch | quoted | model switches at | deviation | time gap at the quoted size | tolerance | verdict |', '|---|---|---|---|---|---|---|'];
    let met = 0;
    for (const p of SWITCH_POINTS) {
      const f = p.fabric();
      const quoted = MB(p.quotedMB);
      const at = modelSwitchBytes(p, f);
      const gap = candidateGap(p, f, quoted);
      const ok = gap <= bandTolerance(quoted);
      if (ok) met += 1;
      markdown.push(`| ${p.what} | ${p.quotedMB} MB | ${(at / 1e6).toPrecision(3)} MB | ${pct(at / quoted - 1)} | ${(gap * 100).toFixed(1)}% | ±${bandTolerance(quoted) * 100}% | ${ok ? 'pass' : '**MISS**'} |`);
    }
    markdown.push('', `${met}/${SWITCH_POINTS.length} switch points within tolerance.`, '');
    return { markdown, summary: [`switch points: ${met}/${SWITCH_POINTS.length} within tolerance`] };
  },
};
