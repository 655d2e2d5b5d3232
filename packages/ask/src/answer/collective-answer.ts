import { runCollective } from '@trainplan/protocol';
import { countOf, formatBytesDecimal, formatNumber, formatSeconds } from '@trainplan/units';
import { gpusPerNodeOf } from '../defaults.ts';
import type { ParsedQuestion } from '../question.ts';
import type { Answer } from './answer-types.ts';
import { answerHelp } from './help-answer.ts';
import { gpuName } from './describe-estimate.ts';
import { refusalWords } from './issue-words.ts';

/**
 * "all-reduce 1 GB on 64 H100": one size through the protocol's runCollective (NCCL's cost model,
 * collectives-reference.md), reported with nccl-tests' algbw and busbw.
 */
export function answerCollective(q: ParsedQuestion): Answer {
  const p = q.parameters;
  const perNode = gpusPerNodeOf(p);
  const gpus = p.gpus ?? (p.nodes ?? 1) * perNode;
  if (gpus > perNode && gpus % perNode !== 0) {
    return answerHelp(q, [`${countOf(gpus, 'GPU')} ${gpus === 1 ? 'is' : 'are'} not whole nodes of ${perNode}`]);
  }
  const nodes = Math.max(1, Math.ceil(gpus / perNode));
  const request = {
    op: p.op,
    ...(p.system !== undefined ? { system: p.system } : { gpu: p.gpu }),
    nodes,
    gpusPerNode: Math.min(gpus, perNode),
    algorithm: p.algorithm ?? 'auto',
    size: p.bytes,
  };
  const result = runCollective(request);
  const base = { intent: q.intent, question: q.text, assumptions: q.defaults.map((d) => d.text), examples: [], data: result, notes: [] as string[] };
  const subject = `${p.op} of ${formatBytesDecimal(p.bytes ?? 0)} on ${gpus} × ${gpuName(p.gpu ?? '')}`;
  if (!result.ok) return { ...base, ok: false, headline: `${subject}: ${refusalWords(result)}`, figures: [] };
  const row = result.rows[0];
  if (row === undefined) return { ...base, ok: false, headline: `${subject}: no answer`, figures: [] };
  return {
    ...base,
    ok: true,
    headline: `${subject}: ${formatSeconds(row.seconds)}, bus bandwidth ${formatNumber(row.busbwGBps)} GB/s`,
    configuration: `${countOf(result.nodes, 'node')} × ${countOf(result.gpusPerNode, 'GPU')} of ${result.system} over ${result.network}; ${row.algorithm} / ${row.protocol}`,
    figures: [
      { label: 'Time', value: formatSeconds(row.seconds) },
      { label: 'Algorithm bandwidth', value: `${formatNumber(row.algbwGBps)} GB/s` },
      { label: 'Bus bandwidth', value: `${formatNumber(row.busbwGBps)} GB/s` },
      { label: 'Algorithm', value: `${row.algorithm} (${row.protocol})${request.algorithm === 'auto' ? ', NCCL’s choice' : ''}` },
    ],
    notes: [...result.notes],
  };
}
