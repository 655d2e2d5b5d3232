import { describe, expect, it } from 'vitest';
import { FlowEngine, type FlowProgram } from '../../src/emulator/flow-engine.ts';

/** Records when each tagged flow finished. */
class Recorder implements FlowProgram {
  readonly finished = new Map<number, number>();
  onTimer(): void {}
  onFlowDone(engine: FlowEngine, tag: number): void { this.finished.set(tag, engine.now); }
}

function start(engine: FlowEngine, program: number, tag: number, bytes: number, links: number[], cap = Number.POSITIVE_INFINITY) {
  engine.flow(program, tag, bytes, Int32Array.from(links), links.length, null, cap);
}

describe('flow engine: max-min fair sharing', () => {
  it('flows with unequal bottlenecks get max-min rates, not an equal split per link', () => {
    // Link A 10 B/s, link B 4 B/s; flow 0 on A, flow 1 on A and B, flow 2 on B.
    // Max-min by hand: B is the tightest (4 / 2 = 2): flows 1 and 2 get 2; flow 0 takes A's
    // remaining 10 − 2 = 8. (An equal split per link would give flow 0 only 5.)
    const engine = new FlowEngine(Float64Array.from([10, 4]));
    const r = new Recorder();
    const p = engine.addProgram(r);
    start(engine, p, 0, 8, [0]);
    start(engine, p, 1, 2, [0, 1]);
    start(engine, p, 2, 4, [1]);
    expect(engine.run(100)).toBe(true);
    // Flow 0: 8 B at 8 B/s → 1 s. Flow 1: 2 B at 2 B/s → 1 s. Flow 2: 2 B by 1 s, then alone on B
    // at 4 B/s for the other 2 B → 1.5 s.
    expect(r.finished.get(0)).toBeCloseTo(1, 12);
    expect(r.finished.get(1)).toBeCloseTo(1, 12);
    expect(r.finished.get(2)).toBeCloseTo(1.5, 12);
  });

  it('a capped flow leaves its unused share to the others on the link', () => {
    // Link of 9 B/s; flow 0 capped at 1 B/s; flows 1 and 2 share the rest: 4 B/s each.
    const engine = new FlowEngine(Float64Array.from([9]));
    const r = new Recorder();
    const p = engine.addProgram(r);
    start(engine, p, 0, 1, [0], 1);
    start(engine, p, 1, 4, [0]);
    start(engine, p, 2, 4, [0]);
    engine.run(100);
    expect(r.finished.get(0)).toBeCloseTo(1, 12);
    expect(r.finished.get(1)).toBeCloseTo(1, 12);
    expect(r.finished.get(2)).toBeCloseTo(1, 12);
  });

  it('a rate freed two links away reaches the flow that can use it (parking-lot chain)', () => {
    // Links A, B, C of 6 B/s. Flow 0 on A, B, C; flow 1 on A; flow 2 on C; flow 3 on C.
    // Max-min: C holds 3 flows → 2 each; flow 0 = 2, so flow 1 takes A's 6 − 2 = 4.
    const engine = new FlowEngine(Float64Array.from([6, 6, 6]));
    const r = new Recorder();
    const p = engine.addProgram(r);
    start(engine, p, 1, 4, [0]);
    start(engine, p, 0, 2, [0, 1, 2]);
    start(engine, p, 2, 2, [2]);
    start(engine, p, 3, 2, [2]);
    engine.run(100);
    expect(r.finished.get(1)).toBeCloseTo(1, 12);
    expect(r.finished.get(0)).toBeCloseTo(1, 12);
  });

  it('link bytes add up to every flow’s bytes on each of its links', () => {
    const engine = new FlowEngine(Float64Array.from([10, 4]));
    const p = engine.addProgram(new Recorder());
    start(engine, p, 0, 8, [0]);
    start(engine, p, 1, 2, [0, 1]);
    start(engine, p, 2, 4, [1]);
    engine.run(100);
    expect(engine.linkBytes[0]).toBeCloseTo(10, 9);
    expect(engine.linkBytes[1]).toBeCloseTo(6, 9);
  });
});
