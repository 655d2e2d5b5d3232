/**
 * The JSON answers of the search, nodes, scale and inference requests. Every plan is carried as a
 * contract scenario (it round-trips through runEstimate) with its contract estimate.
 */
import type { PruneReason } from '@trainplan/search';
import type { EstimateOk, FieldIssue, ScenarioInput } from '../wire.ts';
import type { NvlinkDomainsJson } from './nvlink-domains.ts';
import type { SEARCH_OBJECTIVES } from './request-parts.ts';

/** What a search optimises (request-parts.ts SEARCH_OBJECTIVES, the list the request and the answer are validated against). */
export type SearchObjectiveId = (typeof SEARCH_OBJECTIVES)[number];

export interface SearchPlanJson {
  rank: number;
  /** "TP 8 · PP 8 · DP 16 · mbs 1 · full recompute". */
  label: string;
  scenario: ScenarioInput;
  estimate: EstimateOk;
  /** Days to train the token budget, when training.tokens was given. */
  days?: number;
  gpuHours?: number;
  /** With pricePerGpuHour and tokens. */
  cost?: number;
}

export interface SearchAlternativeJson {
  /** What moved from the best plan, e.g. "TP 16 crosses nodes". */
  change: string;
  label: string;
  scenario: ScenarioInput;
  /** Present when it runs. */
  stepTimeSeconds?: number;
  /** (its step time / the best's) − 1. */
  slowdown?: number;
  why: string;
}

export interface PrunedJson {
  reason: PruneReason;
  count: number;
  description: string;
  example?: string;
}

export interface SearchStatsJson {
  /** Candidates in the space. */
  spaceSize: number;
  /** Candidates settled: ranked, or ruled out with a reason (pruned subtrees count every candidate in them). */
  candidatesEvaluated: number;
  /** Full planner estimates run. */
  fullEstimates: number;
  budgetExhausted: boolean;
  pruned: PrunedJson[];
}

export interface SearchOkJson extends SearchStatsJson {
  ok: true;
  objective: SearchObjectiveId;
  best: SearchPlanJson;
  top: SearchPlanJson[];
  alternatives: SearchAlternativeJson[];
  warnings: string[];
  /** Extension: a cluster of fewer nodes whose best plan steps at least 1% faster than `best` (absent when none within 10% below, or at the largest power of two below, does). */
  fewerNodes?: FewerNodesJson;
}

/** Fewer nodes that run faster: their count, their best plan, and why, in words. */
export interface FewerNodesJson {
  why: string;
  nodes: number;
  gpus: number;
  plan: SearchPlanJson;
}

/** The nearest thing that would run, and why the request as asked does not. */
export interface ClosestJson {
  why: string;
  nodes?: number;
  gpus?: number;
  scenario?: ScenarioInput;
  estimate?: EstimateOk;
  days?: number;
  gpuHours?: number;
  cost?: number;
}

export interface SearchFailJson extends Partial<SearchStatsJson> {
  ok: false;
  /**
   * 'budget-exhausted': the candidate budget ran out before any plan that fits was estimated (one may
   * exist among the rest); nearestMiss is then the closest candidate seen so far.
   */
  reason: 'invalid' | 'no-feasible-configuration' | 'budget-exhausted';
  message: string;
  issues?: FieldIssue[];
  /** The candidate that came closest to fitting in memory on the cluster asked for (of those estimated, when the budget ran out). */
  nearestMiss?: { label: string; scenario: ScenarioInput; neededBytes: number; availableBytes: number; message: string };
  closest?: ClosestJson;
  /** Where the constraints contradict each other, so no cluster can run the request (a usage error, not a plan this cluster lacks): why, in words, as the message says it. */
  contradiction?: string;
}

export type SearchResponseJson = SearchOkJson | SearchFailJson;

/** A cluster size and what training the token budget on it takes. */
export interface NodesSizeJson {
  nodes: number;
  gpus: number;
  days: number;
  seconds: number;
  gpuHours: number;
  cost?: number;
}

export interface NodesOkJson extends NodesSizeJson {
  ok: true;
  /**
   * 'fewest-nodes' (a deadline was given, with or without a budget), 'fastest-within-budget' (a budget
   * and no deadline: the fastest plan the budget affords), 'days-on-nodes' (nodes was given) or
   * 'cost-time-frontier' (frontier was asked: the cheapest size, with the curve in `frontier`).
   */
  mode: 'fewest-nodes' | 'fastest-within-budget' | 'days-on-nodes' | 'cost-time-frontier';
  tokens: number;
  /** The configuration used: the best plan found on that many nodes. */
  configuration: SearchPlanJson;
  /** Searches run (one per cluster size tried). */
  searches: number;
  /**
   * On a system whose NVLink domain spans several nodes (GB200 NVL72: 18 trays of 4 GPUs a rack): the domains,
   * racks, the answer's GPUs fill, ⌈gpus / domain⌉; the last one partly when they do not divide. Absent elsewhere.
   * gpusUsedEach: where the plan is placed in equal segments of each domain (the planner's placedDomainGpus), not
   * filling them in turn, the GPUs it uses in each.
   */
  nvlinkDomains?: NvlinkDomainsJson;
  /** 'fastest-within-budget': the smallest cluster that fits, how long it takes, and whether it stays within the budget. */
  smallest?: NodesSizeJson & { withinBudget: boolean };
  /**
   * 'fewest-nodes': every size from fromNodes to nodes − 1 was searched and falls short: it misses the
   * deadline, or runs no plan at all (noPlan of them, outOfMemory of those out of memory); complete:
   * none below fromNodes can meet it even at 100% MFU.
   */
  checked?: { fromNodes: number; complete: boolean; noPlan: number; outOfMemory: number; candidateBudget?: number };
  /** How thoroughly the cluster sizes were searched, for humans. */
  note?: string;
  /** When the batch holds the plan back: the same question answered with twice the global batch. */
  largerBatch?: LargerBatchJson;
  /**
   * 'cost-time-frontier': every cluster size searched that runs, fewest nodes first (the answer itself is
   * the cheapest of them), with the fastest beside it.
   */
  frontier?: FrontierSizeJson[];
  fastest?: FrontierSizeJson;
  /** The request's uptime, where it gave one: days, seconds, GPU-hours and costs are on the wall clock at it. */
  uptime?: number;
}

/** A cluster size on the time–cost curve: what training takes on it with its best plan. */
export interface FrontierSizeJson extends NodesSizeJson {
  /** The best plan found on that many nodes, e.g. "TP 8 · PP 8 · DP 16 · mbs 1 · …". */
  label: string;
  mfu: number;
  /** No other size searched trains as fast or faster for as few GPU-hours or fewer (one strictly). */
  pareto: boolean;
  /** Sequences per optimizer step this size was planned at (each size its own where the request's batch is a default). */
  globalBatchSize?: number;
}

/**
 * The same question answered with twice the global batch, given only when the batch holds the plan
 * back (its pipeline bubble takes a tenth of the step or more, or each data-parallel rank gets a
 * single micro-batch) and the larger batch needs fewer nodes or days. A hint: whether the model trains
 * as well at that batch is not the step-time model's to say.
 */
export interface LargerBatchJson extends NodesSizeJson {
  /** Sequences per optimizer step: twice the request's. */
  globalBatchSize: number;
  /** The pipeline bubble's share of the step in the plan at the request's batch. */
  bubbleFraction: number;
  message: string;
}

export interface NodesFailJson {
  ok: false;
  reason: 'invalid' | 'does-not-fit' | 'deadline-unreachable' | 'budget-unreachable';
  message: string;
  issues?: FieldIssue[];
  closest?: ClosestJson;
  searches?: number;
  /** 'deadline-unreachable': the deadline answered with twice the global batch, when that meets it. */
  largerBatch?: LargerBatchJson;
  /** 'does-not-fit': where the constraints contradict each other, so no cluster can run the request (a usage error, not a plan this cluster lacks): why, in words, as the message says it. */
  contradiction?: string;
  /** The request's uptime, where it gave one: the closest's days, GPU-hours and cost are on the wall clock at it. */
  uptime?: number;
}

export type NodesResponseJson = NodesOkJson | NodesFailJson;
