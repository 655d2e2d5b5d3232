import { collectiveCost, type CollectiveCost, type TopologySummary } from '@trainplan/collectives';
import { countOf, formatBytes, formatSize, toGBps } from '@trainplan/units';
import { issuesMessage } from '../problem.ts';
import type { FieldIssue } from '../wire.ts';
import { resolveCollectiveMachine, type CollectiveMachine } from './collective-machine.ts';
import type { CollectiveErrorJson, CollectiveResponseJson, CollectiveRowJson } from './collective-response.ts';
import { validateCollectiveRequest, type CollectiveRequest } from './collective-schema.ts';
import { emulateRows } from './emulate-rows.ts';
import { emulatedNodeSizes, MAX_EMULATED_NODE_SIZES } from './emulation-limit.ts';
import { defaultSweepBytes, sizeCount } from './sweep.ts';

function error(reason: CollectiveErrorJson['reason'], issues: FieldIssue[], limit?: CollectiveErrorJson['limit']): CollectiveErrorJson {
  return { ok: false, reason, message: issuesMessage(issues), issues, ...(limit && { limit }) };
}

function row(bytes: number, cost: CollectiveCost): CollectiveRowJson {
  return {
    bytes,
    seconds: cost.seconds,
    algbwGBps: toGBps(cost.algBandwidth),
    busbwGBps: toGBps(cost.busBandwidth),
    algorithm: cost.algorithm,
    protocol: cost.protocol,
  };
}

function closedFormRows(request: CollectiveRequest, machine: CollectiveMachine, sizes: readonly number[]):
  { ok: true; rows: CollectiveRowJson[] } | { ok: false; error: CollectiveErrorJson } {
  const rows: CollectiveRowJson[] = [];
  for (const bytes of sizes) {
    try {
      rows.push(row(bytes, collectiveCost({ op: request.op, bytes, group: machine.group, fabric: machine.fabric, algorithm: request.algorithm })));
    } catch (e) {
      // collectiveCost throws RangeError for an algorithm the machine cannot run: data here. Anything else (its
      // bandwidth-bound assertion) is a bug of the model's, rethrown so that it reads as one (the CLI's internal error,
      // the API's 500), never as a bad algorithm.
      if (!(e instanceof RangeError)) throw e;
      return { ok: false, error: error('unavailable', [{ path: 'algorithm', message: e.message }]) };
    }
  }
  return { ok: true, rows };
}

export interface RunCollectiveOptions {
  /**
   * The most (nodes × sizes) the request may emulate (emulation-limit.ts); default MAX_EMULATED_NODE_SIZES, which
   * keeps a server's request near a second. The CLI, spending only its user's CPU, passes Infinity: its event
   * budget still bounds the work of every size.
   */
  readonly maxEmulatedNodeSizes?: number;
}

/**
 * A collective request (validated here) → nccl-tests-like rows from NCCL's cost model, and with
 * `emulate: true` the discrete-event emulator's time, bottleneck link and busiest links per size.
 * Never throws for anything a caller can send: bad input, an impossible algorithm and an
 * emulation past its event budget come back as `{ ok: false, reason, message, issues, limit? }`.
 */
export function runCollective(body: unknown, options: RunCollectiveOptions = {}): CollectiveResponseJson {
  const validation = validateCollectiveRequest(body);
  if (!validation.ok) return error('invalid', validation.issues);
  const request = validation.value;
  // The sweep's emulation limit, here so that the servers (API, chat bots) refuse the same requests alike.
  const maxNodeSizes = options.maxEmulatedNodeSizes ?? MAX_EMULATED_NODE_SIZES;
  const nodeSizes = emulatedNodeSizes(request);
  if (nodeSizes > maxNodeSizes) {
    const sizes = sizeCount(request);
    const message = `emulating ${countOf(sizes, 'size')} on ${countOf(request.nodes, 'node')} is ${nodeSizes.toLocaleString('en-US')} node-sizes, over the limit of `
      + `${maxNodeSizes.toLocaleString('en-US')} per request: emulate ${sizes > 1 ? 'fewer sizes or nodes' : 'on fewer nodes'} (the closed form, without emulate, has no such limit)`;
    return error('event-budget', [{ path: '', message }], { name: 'emulatedNodeSizes', value: maxNodeSizes, requested: nodeSizes });
  }
  const resolved = resolveCollectiveMachine(request);
  if (!resolved.ok) return error('invalid', resolved.issues);
  const machine = resolved.value;
  const sizes = request.sizes ?? (request.size !== undefined ? [request.size] : defaultSweepBytes());
  const closed = closedFormRows(request, machine, sizes);
  if (!closed.ok) return closed.error;
  // One rank has no peer: NCCL returns at once (nccl-tests reports 0 bus bandwidth), so the zeros need their reason.
  const notes: string[] = machine.group.ranks === 1
    ? ['one GPU: a collective over a single rank moves no data (it has no peer to exchange with), so every size takes 0 s; give more GPUs (nodes, gpusPerNode)']
    : [];
  if (machine.placementNote !== undefined) notes.push(machine.placementNote);
  if (machine.nicNote !== undefined) notes.push(machine.nicNote);
  // A size past one GPU's memory is no buffer nccl-tests (or a training step) could allocate: costed, and said.
  const tooLarge = sizes.filter((bytes) => bytes > machine.gpu.hbmBytes);
  if (tooLarge.length > 0) {
    notes.push(`${tooLarge.length === 1 ? `a size of ${formatSize(tooLarge[0]!)} is` : `${tooLarge.length} sizes, from ${formatSize(Math.min(...tooLarge))}, are`} more than one ${machine.gpu.name}'s `
      + `${formatBytes(machine.gpu.hbmBytes)} of memory: no GPU could hold ${tooLarge.length === 1 ? 'that buffer' : 'those buffers'}; the times are the cost model's alone`);
  }
  let topology: string[] | undefined;
  let topologyGraph: TopologySummary | undefined;
  if (request.emulate) {
    const emulated = emulateRows(request, machine, closed.rows);
    if (!emulated.ok) return error('event-budget', [{ path: 'eventBudget', message: emulated.message }], emulated.limit);
    topology = emulated.topology;
    topologyGraph = emulated.topologyGraph;
    notes.push(...emulated.notes);
  } else {
    // Said, not silently dropped: these only steer the emulator.
    const unused = (['oversubscription', 'eventBudget'] as const).filter((key) => request[key] !== undefined);
    if (unused.length > 0) notes.push(`${unused.join(' and ')} ${unused.length > 1 ? 'apply' : 'applies'} only to the emulator (emulate): the closed form above does not use ${unused.length > 1 ? 'them' : 'it'}`);
  }
  return {
    ok: true,
    op: request.op,
    gpu: machine.gpu.id,
    system: machine.system.id,
    network: machine.network.id,
    nodes: machine.nodes,
    gpusPerNode: machine.gpusPerNode,
    ranks: machine.group.ranks,
    ...(machine.group.concurrentGroupsPerNode !== undefined && { concurrentGroups: machine.group.concurrentGroupsPerNode }),
    algorithm: request.algorithm,
    ...(request.collnet === true && { collnet: true }),
    rows: closed.rows,
    ...(topology && { topology }),
    ...(topologyGraph && { topologyGraph }),
    notes,
  };
}
