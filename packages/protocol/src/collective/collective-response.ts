import type { TopologySummary } from '@trainplan/collectives';
/** The JSON answer to a collective request: one row per size, nccl-tests columns, units in the names. */
import type { FieldIssue } from '../wire.ts';

export interface CollectiveRowJson {
  bytes: number;
  seconds: number;
  algbwGBps: number;
  busbwGBps: number;
  /** The (algorithm, protocol) that ran: under 'auto', NCCL's tuner's argmin (by its predicted times, not the times given). */
  algorithm: string;
  protocol: string;
  /** With `emulate: true`: the discrete-event emulator's answer for the same size. */
  emulated?: EmulatedRowJson;
}

export interface LinkUtilisationJson {
  link: string;
  kind: string;
  /** Bytes carried over the run divided by bandwidth × run time. */
  utilisation: number;
  bytes: number;
  bandwidthGBps: number;
}

export interface EmulatedRowJson {
  seconds: number;
  algbwGBps: number;
  busbwGBps: number;
  /** The algorithm the emulator executed (ring or direct) and the protocol it used. */
  algorithm: string;
  protocol: string;
  /** 'full': one flow per rank per step per channel; 'symmetric': one per edge class (see the emulator). */
  mode: 'full' | 'symmetric';
  events: number;
  bottleneckLink: LinkUtilisationJson;
  /** The busiest links, most utilised first (at most 8). */
  links: LinkUtilisationJson[];
  /** Emulated time / closed-form time − 1. */
  differenceFromClosedForm: number;
}

export interface CollectiveOkJson {
  ok: true;
  op: string;
  gpu: string;
  system: string;
  network: string;
  nodes: number;
  gpusPerNode: number;
  ranks: number;
  /** Sibling groups that ran the same collective at once on the same nodes (when more than one). */
  concurrentGroups?: number;
  /** The algorithm asked for ('auto' unless forced). */
  algorithm: string;
  /** True when the request turned CollNet on (its SHARP algorithms were weighed). */
  collnet?: boolean;
  rows: CollectiveRowJson[];
  /** With `emulate: true`: the topology the emulator ran on, as text lines. */
  topology?: string[];
  /** With `emulate: true`: the same topology as data. */
  topologyGraph?: TopologySummary;
  notes: string[];
}

/**
 * Why a request has no answer: invalid input ('invalid'), an algorithm the machine cannot run
 * ('unavailable'), or an emulation larger than a limit ('event-budget', with the limit and what the
 * request needs). Never thrown: returned.
 */
export interface CollectiveErrorJson {
  ok: false;
  reason: 'invalid' | 'unavailable' | 'event-budget';
  message: string;
  issues: FieldIssue[];
  limit?: CollectiveLimitJson;
}

/** The limit a request passed: its name and value, and what the request needs. */
export interface CollectiveLimitJson {
  name: string;
  value: number;
  /** What the request needs: exactly (node-sizes), or at least (`requestedIsLowerBound`). */
  requested: number;
  /**
   * True when `requested` is only a lower bound: the eventBudget an emulation needs is known in part before it
   * runs (events, flows in flight) and otherwise only by running it until it passes the budget; it needs at least
   * `requested`, and more. Absent when `requested` is exact.
   */
  requestedIsLowerBound?: boolean;
}

export type CollectiveResponseJson = CollectiveOkJson | CollectiveErrorJson;
