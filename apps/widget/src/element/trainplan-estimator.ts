/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { validateScenario, type EstimateJson, type EstimateOk, type FrontierSizeJson, type NodesResponseJson, type ScenarioInput } from '@trainplan/protocol';
import { countOf, formatBytes, formatGrouped } from '@trainplan/units';
import { breakdownBar } from '../charts/breakdown-bar.ts';
import { esc } from '../charts/markup.ts';
import { memoryBar } from '../charts/memory-bar.ts';
import { viewBoxWidthFor } from '../charts/chart-size.ts';
import { scalingChart, scalingPoint, type ScalingPoint } from '../charts/scaling-chart.ts';
import { LastAnswer } from '../compute/last-answer.ts';
import { memoryLevers } from '../compute/memory-levers.ts';
import { frontierRequestFor, nodesRequestFor, searchRequestFor } from '../compute/search-requests.ts';
import { DEFAULT_VALUES, FIELDS, FIELD_NAMES } from '../form/fields.ts';
import { keptIn, withKept } from '../form/kept-fields.ts';
import { issueAt } from '../form/issue-fields.ts';
import { searchedChanges, withSearched, SEARCHED_FIELDS } from '../form/searched-fields.ts';
import { scenarioFromFields, type Budget } from '../form/scenario-from-fields.ts';
import { logSample, MAX_SIZING_CANDIDATES } from '../sizing/log-sample.ts';
import { ownSize, sizeOf, withSizes } from '../sizing/merged-frontier.ts';
import { nodesAnswer } from '../sizing/nodes-answer.ts';
import { scalingNodeCounts, validNodeCounts } from '../sizing/node-counts.ts';
import { LinkedEstimatorForm } from './linked-estimator-form.ts';
import { frontierSection, headline, largestPart, nodesSection, outOfMemoryMessage, pipelineSection, searchedNodesSection, warningsList } from './results.ts';
import { CURVE_NEXT, failed, nextTask, searching } from './search-progress.ts';
import { emit, say } from './shadow-form.ts';
import { template } from './template.ts';

/**
 * Node counts estimated in one task in the page (#sizing). A CPU profile of `<trainplan-estimator auto>` in Chromium on a
 * shared 2-core machine spent 41 ms on the demo's 12 estimates, about 3.4 ms each: the up to 103 of a size with many
 * valid counts would hold the main thread some 0.35 s in one task, 8 about 27 ms (a long task is over 50 ms).
 */
const ESTIMATES_PER_TASK = 8;

/** The status when the plan does not fit: not a typing mistake; the micro-batch's message lists what to try. */
const OUT_OF_MEMORY_STATUS = 'Out of memory: see the marked field for what to try.';

/**
 * `<trainplan-estimator>`: a training-plan estimator for any page. Attributes preset the scenario
 * (the names in form/fields.ts: model, gpu, network, nodes, gpus-per-node, gbs, mbs, seq, precision,
 * recompute, tp, pp, vp, cp, sp, distopt, tokens, days; custom shapes: model="custom" layers hidden-size
 * heads kv-heads ffn vocab gated); `api="https://…"` sends estimates to a trainplan API instead of
 * computing in the page; `sync-hash` mirrors the scenario into the page's URL hash (hash.ts) and
 * starts from it (the link, its kept fields and the notes on what a change did: linked-estimator-form.ts);
 * `theme="light|dark"` overrides prefers-color-scheme.
 *
 * It never throws into the host page: every callback catches, shows a message beside the field
 * (or in its status line) and keeps the last good result on screen.
 * Events (bubbling, composed): `trainplan-estimate` with `{ scenario, estimate }` after each good
 * result; `trainplan-invalid` with `{ issues }` when the input cannot be estimated.
 */
export class TrainplanEstimator extends LinkedEstimatorForm {
  static readonly observedAttributes = [...FIELD_NAMES, 'api', 'sync-hash'];

  /** The last time–cost curve (runNodes with frontier), kept while its request stays the same. */
  readonly #frontier = new LastAnswer<NodesResponseJson>();
  /** The searched "how many nodes" for a deadline: editing the node count leaves its request as it was. */
  readonly #fewest = new LastAnswer<NodesResponseJson>();
  /** The scaling chart's points and node count, drawn again at the width its column has (it fills it). */
  #scaling: [ScalingPoint[], number] | undefined;
  #scalingWidth = 0;
  readonly #resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => this.guard(() => this.#drawScaling(true)));
  /**
   * Aborts the configuration search of the latest update once the reader edits a field or a newer update starts: a
   * newer input's search need not wait behind it, and its answer, come within the input's debounce, wrote the searched
   * plan over what the reader had just typed (QA).
   */
  #cancel: AbortController | undefined;

  constructor() {
    super({ fields: FIELDS, defaults: DEFAULT_VALUES, template: template(), keptNote: ' Showing the last good result.' });
  }

  /** The last scenario that gave a good estimate (a contract scenario), or undefined before the first. */
  get scenario(): ScenarioInput | undefined {
    return this.answer?.scenario;
  }

  /** The last good estimate (the contract's estimate JSON), or undefined before the first. */
  get estimate(): EstimateOk | undefined {
    return this.answer?.estimate;
  }

  protected override connected(): void {
    const scaling = this.root.querySelector('.out-scaling');
    if (scaling) this.#resized?.observe(scaling);
    super.connected();
  }

  protected override disconnected(): void {
    // Off the page, no answer is wanted: the workers' searches stop (LastAnswer.clear aborts them).
    this.setBackend();
    this.#resized?.disconnect();
    super.disconnected();
  }

  protected override setBackend(): void {
    super.setBackend();
    this.#frontier.clear();
    this.#fewest.clear();
  }

  /** The reader has taken over: editing a field the search chooses turns "auto" off. */
  protected override input(name: string, value: string): boolean {
    this.#cancel?.abort();
    const adjusted = super.input(name, value);
    if (!SEARCHED_FIELDS.includes(name) || this.values.auto !== 'true') return adjusted;
    this.values.auto = 'false';
    return true;
  }

  protected async update(run: number): Promise<void> {
    this.#cancel?.abort();
    const cancel = (this.#cancel = new AbortController());
    const parsed = scenarioFromFields(this.values);
    // Without Auto, or with input that cannot be estimated, the time–cost curve and the deadline's search are no longer
    // wanted: their workers stop (one kept searching every size to the end after Auto was turned off, QA).
    if (!parsed.ok || !parsed.auto) {
      this.#fewest.stop();
      this.#frontier.stop();
    }
    if (!parsed.ok) {
      // No scenario states what the form shows: no link rather than the last good one's.
      this.share(undefined);
      return this.showIssues(parsed.issues);
    }
    // The link's fields the form cannot show go with it (with "auto", only the model's: the search picks the rest).
    let scenario = withKept(parsed.scenario, parsed.auto ? keptIn(this.keptFields, 'model') : this.keptFields);
    // The link opens what the form shows, an error included (the results left on screen are marked stale).
    this.share(scenario, parsed.budget.deadlineDays);
    const valid = validateScenario(scenario);
    if (!valid.ok) return this.showIssues(valid.issues.map(issueAt));
    let results: EstimateJson[];
    let own: FrontierSizeJson | undefined;
    this.pending('Estimating…');
    try {
      if (parsed.auto) {
        const found = await this.#search(run, scenario, cancel.signal);
        if (!found) return;
        scenario = found.scenario;
        results = [found.estimate];
        own = ownSize(found.estimate, found.label);
      } else {
        this.set('.out-search', '');
        results = await this.backend.estimate([scenario]);
      }
    } catch (e) {
      return this.unreachable(run, e);
    }
    if (!this.isCurrent(run)) return;
    const estimate = results[0];
    if (!estimate) return this.status(`The estimator gave no answer.${this.kept()}`);
    if (!estimate.ok) {
      if (estimate.reason === 'out-of-memory') {
        // The refused plan's memory (the answer carries it) names what fills the GPU, so the lever can be chosen.
        const largest = estimate.memory === undefined ? '' : largestPart(estimate.memory);
        const need = estimate.neededBytes !== undefined && estimate.availableBytes !== undefined
          ? ` (needs ${formatBytes(estimate.neededBytes)} of ${formatBytes(estimate.availableBytes)} per GPU${largest})` : '';
        return this.showIssues([{ field: 'mbs', message: outOfMemoryMessage(need, memoryLevers(scenario, estimate)) }], OUT_OF_MEMORY_STATUS);
      }
      const issues = estimate.issues ?? [];
      return this.showIssues(issues.length > 0 ? issues.map(issueAt) : [{ field: '', message: estimate.message }]);
    }
    // Training takes whole optimizer steps (runNodes refuses a budget under one): say so beside the budget.
    const { globalBatchSize, seqLength } = estimate.resolved;
    if (parsed.budget.tokens !== undefined && parsed.budget.tokens < globalBatchSize * seqLength) {
      return this.showIssues([{ field: 'tokens', message: `at least one step's ${formatGrouped(globalBatchSize * seqLength)} tokens (global batch × sequence length)` }]);
    }
    this.show({ scenario, estimate }, {
      '.headline': headline(estimate),
      '.warnings': warningsList(estimate),
      '.out-breakdown': breakdownBar(estimate.breakdown, estimate.stepTimeSeconds),
      '.out-memory': memoryBar(estimate.memory),
      '.out-pipeline': pipelineSection(estimate),
    });
    this.share(scenario, parsed.budget.deadlineDays);
    emit(this, 'trainplan-estimate', { scenario, estimate });
    await this.#sizing(run, scenario, estimate, parsed.budget, parsed.auto, own);
  }

  /**
   * "Auto": the configuration search for this model, cluster and batch; the best plan's
   * choices are written into the form so the reader sees (and can then edit) them. Its answer is dropped once `run` is
   * not current (a field edited since it started, or a newer update): the reader's input wins.
   */
  async #search(run: number, scenario: ScenarioInput, signal: AbortSignal): Promise<{ scenario: ScenarioInput; estimate: EstimateOk; label: string } | undefined> {
    this.pending('Searching parallel configurations…');
    // "Searching…" is painted before the search holds the page.
    await nextTask();
    if (!this.isCurrent(run)) return undefined;
    const result = await this.backend.search(searchRequestFor(scenario), signal);
    if (!this.isCurrent(run)) return undefined;
    if (!result.ok) {
      const why = result.closest?.why ?? result.nearestMiss?.message;
      this.showIssues([{ field: 'auto', message: `${result.message}${why ? ` (${why})` : ''}` }]);
      return undefined;
    }
    this.status('');
    const tokens = scenario.training.tokens;
    // The form's machine, not the one the search resolved (withSearched says why): the estimate is the same.
    const best = { ...result.best.scenario, cluster: scenario.cluster, training: { ...result.best.scenario.training, ...(tokens !== undefined ? { tokens } : {}) } };
    const before = this.values;
    this.values = withSearched(before, best);
    this.writeForm();
    say(this.root.getElementById('m-auto'), '');
    // A live region (template.ts): the search's one announcement, naming the fields it changed (searchedChanges).
    const changed = searchedChanges(before, this.values);
    this.set('.out-search', `<p class="caption">${esc(`Searched ${formatGrouped(result.candidatesEvaluated)} configurations: best ${result.best.label}.${changed && ` Set in the form: ${changed}.`}`)}</p>`);
    return { scenario: best, estimate: result.best.estimate, label: result.best.label };
  }

  /** The scaling chart at its column's width; on a resize, only when that width changed. */
  #drawScaling(resized = false): void {
    const width = viewBoxWidthFor(this.root.querySelector<HTMLElement>('.out-scaling')?.clientWidth ?? 0);
    if (!this.#scaling || (resized && width === this.#scalingWidth)) return;
    this.#scalingWidth = width;
    this.set('.out-scaling', scalingChart(...this.#scaling, width));
  }

  /**
   * The scaling curve and the "how many nodes" answer: one batch of estimates at other node counts. With Auto,
   * `own` is the plan found on the form's nodes (a size the searched answers would otherwise leave out).
   */
  async #sizing(run: number, scenario: ScenarioInput, e: EstimateOk, budget: Budget, auto: boolean, own?: FrontierSizeJson): Promise<void> {
    const r = e.resolved;
    const valid = validNodeCounts({
      globalBatchSize: r.globalBatchSize, microBatchSize: r.microBatchSize, modelParallel: r.tensor * r.pipeline * r.context, gpusPerNode: r.gpusPerNode,
      rounds: r.virtualStages > 1 ? r.pipeline : 1,
    });
    const curve = scalingNodeCounts(valid, r.nodes);
    const sizing = budget.tokens !== undefined && budget.deadlineDays !== undefined ? logSample(valid, MAX_SIZING_CANDIDATES) : [];
    const counts = [...new Set([...curve, ...sizing])].sort((a, b) => a - b);
    const at = (nodes: number): ScenarioInput => {
      // Data parallelism follows the node count (a searched plan states it; it must not stay fixed).
      const { gpus: _gpus, ...cluster } = scenario.cluster;
      const { data: _data, ...parallelism } = scenario.parallelism ?? {};
      return { ...scenario, cluster: { ...cluster, nodes }, parallelism, training: { ...scenario.training, ...(budget.tokens !== undefined ? { tokens: budget.tokens } : {}) } };
    };
    // An API may take seconds: both headings say what is on its way meanwhile (a slow one left them bare, QA), or
    // why it did not come, and a resize does not draw the last scenario's chart back.
    const both = (html: string) => { for (const out of ['.out-scaling', '.out-nodes']) this.set(out, html); };
    this.#scaling = undefined;
    both(searching('Estimating other cluster sizes'));
    const results: EstimateJson[] = [];
    // In the page, a few sizes a task, input and paint going on between them; an API takes them all in one request.
    const step = this.backend.kind === 'api' ? counts.length : ESTIMATES_PER_TASK;
    try {
      for (let i = 0; i < counts.length; i += step) {
        if (i > 0) {
          this.#progress('.out-scaling', `${i} of ${counts.length}`);
          await nextTask();
          if (!this.isCurrent(run)) return;
        }
        results.push(...(await this.backend.estimate(counts.slice(i, i + step).map(at))));
      }
    } catch (err) {
      if (this.isCurrent(run)) both(failed(err));
      return;
    }
    if (!this.isCurrent(run)) return;
    const byNodes = new Map(counts.map((n, i) => [n, results[i]] as const));
    const points: ScalingPoint[] = curve.map((nodes) => scalingPoint(nodes, byNodes.get(nodes)));
    this.#scaling = [points, r.nodes];
    this.#drawScaling();
    const answer = sizing.length > 0 ? nodesAnswer(sizing.map((n) => byNodes.get(n)).filter((x): x is EstimateJson => x !== undefined), budget.deadlineDays!) : undefined;
    let searched = '';
    let found: FrontierSizeJson | undefined;
    if (auto && budget.tokens !== undefined && budget.deadlineDays !== undefined) {
      // With "auto" the reader asked for the search: "how many nodes" also searches the configuration per size.
      try {
        const request = nodesRequestFor(scenario, { tokens: budget.tokens, deadlineDays: budget.deadlineDays });
        const key = JSON.stringify(request);
        // The answers and the scaling chart are painted before the search of every size starts.
        if (!this.#fewest.has(key)) {
          this.set('.out-nodes', searching('Searching cluster sizes for the deadline') + nodesSection(answer, budget));
          // The curve's section said to turn Auto on, or showed another plan's curve, while Auto was on (QA).
          if (!this.#frontier.has(JSON.stringify(frontierRequestFor(scenario, budget.tokens)))) this.set('.out-frontier', CURVE_NEXT);
          await nextTask();
          if (!this.isCurrent(run)) return;
        }
        const nodes = await this.#fewest.get(key, (signal) => this.backend.nodes(request, (n) => this.#progress('.out-nodes', `${countOf(n, 'size')} searched`), signal));
        searched = searchedNodesSection(nodes, own, budget.deadlineDays);
        if (nodes.ok) found = sizeOf(nodes.nodes, nodes.gpus, nodes, nodes.configuration.label, nodes.configuration.estimate.mfu);
      } catch (err) {
        searched = failed(err);
      }
      // A stale update's search, stopped (a newer request, Auto off), wrote its failure over the newer one's caption.
      if (!this.isCurrent(run)) return;
    }
    this.set('.out-nodes', searched + nodesSection(answer, budget));
    emit(this, 'trainplan-sized', { points, answer });
    await this.#timeCost(run, scenario, budget.tokens, auto, [own, found]);
  }

  /**
   * Writes how far a long piece of work is ("40 of 103", "12 sizes searched") into `section`'s caption, while it shows
   * one (`searching`): a later update waiting on the same search (LastAnswer) sees it too, and once the answer
   * replaced the caption it is a no-op.
   */
  #progress(section: string, text: string): void {
    const el = this.root.querySelector(`${section} .progress`);
    if (el) el.textContent = ` ${text}`;
  }

  /**
   * The time–cost curve over cluster sizes, with "auto" and a token budget (the reader asked for searching).
   * It searches every size (some 300 searches of a size for the demo's GPT-3 175B on A100), so it runs after the
   * answers are on screen, a task later, and only when its request changed, in a worker (compute/off-thread.ts), its
   * caption counting the sizes searched. In the page it held the main thread for seconds: measured with a long-task
   * PerformanceObserver in Chromium on a shared 2-core machine, `<trainplan-estimator auto>` took one task of 0.8–0.9 s
   * (the search and the scaling estimates), one of 1.2–1.6 s (the searched "how many nodes") and one of 5.4–7.5 s
   * (this curve), over three runs.
   */
  async #timeCost(run: number, scenario: ScenarioInput, tokens: number | undefined, auto: boolean, sizes: readonly (FrontierSizeJson | undefined)[]): Promise<void> {
    if (tokens === undefined) return this.set('.out-frontier', '');
    if (!auto) return this.set('.out-frontier', '<p class="caption">Turn on Auto to draw the time–cost curve over cluster sizes.</p>');
    const request = frontierRequestFor(scenario, tokens);
    const key = JSON.stringify(request);
    if (!this.#frontier.has(key)) {
      this.set('.out-frontier', searching('Searching cluster sizes for the time–cost curve'));
      await nextTask();
      if (!this.isCurrent(run)) return;
    }
    let html: string;
    try {
      const curve = await this.#frontier.get(key, (signal) => this.backend.nodes(request, (n) => this.#progress('.out-frontier', `${countOf(n, 'size')} searched`), signal));
      // The sizes the answers above searched are on the curve too (merged-frontier.ts): its fastest is theirs.
      html = frontierSection(curve.ok ? withSizes(curve, sizes) : curve, scenario.cluster.nodes ?? 1);
    } catch (err) {
      html = failed(err);
    }
    if (this.isCurrent(run)) this.set('.out-frontier', html);
  }
}

/** Registers `<trainplan-estimator>` once (a page may load the module twice). */
export function defineTrainplanEstimator(name = 'trainplan-estimator'): void {
  if (!customElements.get(name)) customElements.define(name, TrainplanEstimator);
}
