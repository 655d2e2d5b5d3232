import { describe, expect, it } from 'vitest';
import { LastAnswer } from '../src/compute/last-answer.ts';

describe('the last answer kept by its request', () => {
  it('computes once for the same key and again for another', async () => {
    const last = new LastAnswer<string>();
    let calls = 0;
    const compute = (v: string) => () => { calls += 1; return Promise.resolve(v); };
    expect(last.has('a')).toBe(false);
    expect(await last.get('a', compute('first'))).toBe('first');
    expect(last.has('a')).toBe(true);
    expect(await last.get('a', compute('second'))).toBe('first');
    expect(calls).toBe(1);
    expect(await last.get('b', compute('third'))).toBe('third');
    expect([calls, last.has('a')]).toEqual([2, false]);
    last.clear();
    expect(last.has('b')).toBe(false);
  });

  it('aborts an answer still on its way when another key is asked for or it is cleared, and not when its own key is', async () => {
    const last = new LastAnswer<string>();
    const signals: AbortSignal[] = [];
    // A computation that never settles by itself (a search still running), recording the signal it was given.
    const pending = (signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<string>(() => {});
    };
    void last.get('a', pending);
    void last.get('a', pending);
    // The same key waits on the same search: nothing computed again, nothing aborted.
    expect(signals.map((s) => s.aborted)).toEqual([false]);
    void last.get('b', pending);
    // A newer request wins: the stale search is stopped, the new one runs.
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    last.clear();
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });

  it('stops an answer on its way, forgetting it once it fails, and keeps one already come', async () => {
    const last = new LastAnswer<string>();
    // A search that fails when stopped, as a worker's does (off-thread.ts rejects with the signal's reason).
    const stoppable = (signal: AbortSignal) => new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    const running = last.get('a', stoppable);
    last.stop();
    await expect(running).rejects.toThrow();
    expect(last.has('a')).toBe(false);
    // An answer that came before: stopping has nothing to stop, and the same key is answered without computing.
    await last.get('b', () => Promise.resolve('come'));
    last.stop();
    expect(last.has('b')).toBe(true);
    expect(await last.get('b', () => Promise.resolve('computed again'))).toBe('come');
  });

  it('forgets a failure, so the next call tries again', async () => {
    const last = new LastAnswer<string>();
    await expect(last.get('a', () => Promise.reject(new Error('unreachable')))).rejects.toThrow('unreachable');
    expect(last.has('a')).toBe(false);
    expect(await last.get('a', () => Promise.resolve('ok'))).toBe('ok');
  });
});
