import {
  bloomTopologySweep, gpt3TimeToTrain, interleavingGains, scaling530B, SCALING_530B_SETTINGS, scatterGatherGains, SEARCH_TARGETS,
  twentyBTensorPipeline, type Scaling530BSetting,
} from './search-findings.ts';
import type { ValidationSection } from './sections.ts';

const pct = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;
const met = (ok: boolean) => (ok ? 'met' : '**missed**');

/** The configuration search against the ground truth and the seed documents' findings (issue 4). */
export const searchSection: ValidationSection = {
  name: 'search',
  run() {
    const t = SEARCH_TARGETS;
    const sweep = bloomTopologySweep();
    const twentyB = twentyBTensorPipeline();
    const interleave = interleavingGains();
    const sg = scatterGatherGains();
    // Each assumed recompute setting's sweep, run once; full recompute (the default) is the scored one.
    const scalingBySetting = (Object.keys(SCALING_530B_SETTINGS) as Scaling530BSetting[]).map((setting) => ({ setting, points: scaling530B(setting) }));
    const pointsFor = (setting: Scaling530BSetting) => scalingBySetting.find((s) => s.setting === setting)!.points;
    const scaling = pointsFor('full recompute');
    const worstError = (setting: Scaling530BSetting) =>
      pct(Math.max(...pointsFor(setting).map((p) => Math.abs(p.stepTimeSeconds / p.measuredStepSeconds - 1))), 0);
    const gpt3 = gpt3TimeToTrain();
    const lowerTpFaster = twentyB.every((r, i) => i === 0 || r.stepTimeSeconds > twentyB[i - 1]!.stepTimeSeconds);
    const shrinking = interleave.every((r, i) => i === 0 || r.gain < interleave[i - 1]!.gain);
    const sgMax = Math.max(...sg.map((r) => r.gain));
    const minEfficiency = Math.min(...scaling.map((r) => r.efficiency));
    const measuredEfficiency = (scaling[0]!.measuredStepSeconds / scaling.at(-1)!.measuredStepSeconds) / (scaling.at(-1)!.nodes / scaling[0]!.nodes);
    const paperError = gpt3.paperDays / t.paperDays - 1;
    const errors = sweep.rows.map((r) => r.measuredTokensPerSecond / r.predictedTokensPerSecond - 1);
    const signedPct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(0)}%`;
    const errorRange = `${signedPct(Math.min(...errors))} to ${signedPct(Math.max(...errors))}`;
    const bestError = gpt3.bestDays / t.nvidiaDays - 1;

    const markdown = [
      '## Configuration search',
      '',
      '`npm run validate` runs these through the same planner as the estimate (`@trainplan/search`, `runSearch`).',
      '',
      '| check | target | measured | |',
      '|---|---|---|---|',
      `| BLOOM topology sweep (${sweep.rows.length} configurations, 384 A100): Spearman rank correlation, predicted vs measured tokens/s | ≥ ${t.spearman} | ${sweep.spearman.toFixed(2)} | ${met(sweep.spearman >= t.spearman)} |`,
      `| BLOOM sweep: the measured best configuration's rank in the prediction | ≤ ${t.measuredBestInTop} | ${sweep.measuredBestPredictedRank} | ${met(sweep.measuredBestPredictedRank <= t.measuredBestInTop)} |`,
      `| 20B at TP × PP = 8: the lower TP is faster | holds | ${twentyB.map((r) => `TP ${r.tensor}: ${r.stepTimeSeconds.toFixed(2)} s`).join(', ')} | ${met(lowerTpFaster)} |`,
      `| interleaving gain shrinks as the batch grows (GPT-3 175B, TP 8, PP 8, v 4) | holds | ${interleave.map((r) => `${r.globalBatchSize}: ${pct(r.gain)}`).join(', ')} | ${met(shrinking)} |`,
      `| scatter-gather gain (GPT-3 175B, 96 A100, batch 12–60) | ≤ ${pct(t.scatterGatherMaxGain, 0)} | max ${pct(sgMax)} | ${met(sgMax <= t.scatterGatherMaxGain && sgMax >= 0)} |`,
      `| 530B, TP 8 × PP 35, 105 → 175 nodes: scaling efficiency | > ${pct(t.scalingEfficiency, 0)} | ${pct(minEfficiency)} (measured ${pct(measuredEfficiency)}) | ${met(minEfficiency > t.scalingEfficiency)} |`,
      `| GPT-3 175B, 300B tokens, 1024 A100, paper configuration (TP 8, PP 8, full recompute, batch 1536) | ${t.paperDays} days ± ${pct(t.paperDaysTolerance, 0)} | ${gpt3.paperDays.toFixed(1)} days (${pct(paperError)}) | ${met(Math.abs(paperError) <= t.paperDaysTolerance)} |`,
      `| same, best configuration found | near ${t.nvidiaDays} days (± ${pct(t.nvidiaDaysTolerance, 0)}) | ${gpt3.bestDays.toFixed(1)} days (${pct(bestError)}): ${gpt3.best.label} | ${met(Math.abs(bestError) <= t.nvidiaDaysTolerance)} |`,
      '',
      `The scatter-gather gain stays near ${pct(sgMax)} from batch 12 to 60, where SC'21 Fig. 18 has it growing with the batch to 11%, and without it `
        + 'interleaving still gains at these batches, where SC\'21 §5.3.2 finds the default schedule faster at larger batches: trainplan charges '
        + 'each exposed send once per micro-batch and chunk, 2(v·m + p − 1) a step, which grows with m as the compute does, so the sends\' share '
        + 'of the step cannot grow with the batch. The paper\'s runs evidently paid more per send than its bytes over the wire (synchronisation '
        + 'of the blocking sends of 2021\'s Megatron, not published); the checks above hold, the trend is not reproduced.',
      '',
      'The 530B scaling check is a ratio because its source, the Azure HPC blog\'s NeMo Megatron 22.06 runs (ground truth tier C), '
        + 'states neither the batch nor the recompute setting. The absolute step times under batch 1920 and either setting:',
      '',
      `| setting | ${scaling.map((p) => `${p.nodes} nodes: measured ${p.measuredStepSeconds} s`).join(' | ')} | efficiency 105 → 175 |`,
      `|---|${scaling.map(() => '---|').join('')}---|`,
      ...scalingBySetting.map(({ setting, points }) =>
        `| ${setting} | ${points.map((p) => `${p.stepTimeSeconds.toFixed(1)} s (${signedPct(p.stepTimeSeconds / p.measuredStepSeconds - 1)})`).join(' | ')} | ${pct(Math.min(...points.map((p) => p.efficiency)))} |`),
      '',
      `With full recompute (the scored row above) the steps are ${worstError('full recompute')} off at worst; the NeMo-Megatron launcher's GPT-3 configurations `
        + `(selective recompute with sequence parallelism) bring them within ${worstError('selective recompute + SP')}, which suggests that setting; the source does not confirm it.`,
      '',
      'The BLOOM sweep, best measured first:',
      '',
      '| configuration | measured tokens/s | predicted tokens/s |',
      '|---|---|---|',
      ...[...sweep.rows].sort((a, b) => b.measuredTokensPerSecond - a.measuredTokensPerSecond)
        .map((r) => `| ${r.label} | ${Math.round(r.measuredTokensPerSecond).toLocaleString('en-US')} | ${Math.round(r.predictedTokensPerSecond).toLocaleString('en-US')} |`),
      '',
      `The rank correlation is limited by the planner's step-time errors on these rows (${errorRange}, see the `
        + 'training-run section and "BLOOM prequel: the whole 2022-02-25 table"): the low-pipeline, high-data-parallel rows run slower '
        + 'on Jean Zay\'s Omni-Path than the model predicts, which reorders configurations whose measured throughputs lie within a few percent.',
      '',
    ];
    return {
      markdown,
      readme: [
        `- Search: GPT-3 175B on 1024 A100 with the paper's configuration ${gpt3.paperDays.toFixed(1)} days (paper: ${t.paperDays}); the best `
        + `configuration found, ${gpt3.bestDays.toFixed(1)} days (NVIDIA: about ${t.nvidiaDays}). Both use SC'21's settings: fp16, unfused attention with `
        + 'dropout and Megatron\'s scatter-gather pipeline sends; the tour\'s `estimate` and `search` examples above run bf16 with flash attention '
        + `and so print fewer days. The BLOOM sweep's rank correlation is ${sweep.spearman.toFixed(2)} (target ${t.spearman}).`,
      ],
      summary: [
        `BLOOM sweep Spearman ${sweep.spearman.toFixed(2)} (target ≥ ${t.spearman}); measured best at predicted rank ${sweep.measuredBestPredictedRank}`,
        `GPT-3 175B 300B tokens: paper config ${gpt3.paperDays.toFixed(1)} d (34), best ${gpt3.bestDays.toFixed(1)} d (24)`,
        `530B 105→175 nodes efficiency ${pct(minEfficiency)}; scatter-gather max gain ${pct(sgMax)}`,
      ],
    };
  },
};
