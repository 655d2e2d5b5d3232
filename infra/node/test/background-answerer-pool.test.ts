import { BroadcastChannel, Worker } from 'node:worker_threads';
import type { AnswerOptions } from '@trainplan/ask';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createBackgroundAnswerer, defaultWorkerCount, type BackgroundAnswerer } from '../src/background-answerer.ts';
import { OBSERVED_WORKER_CHANNEL, type WorkerEvent } from './support/observed-worker-events.ts';

// The answerer's pool of workers, observed from inside them (./support/observed-ask-worker.ts reports each question as
// it starts and ends, and holds a question until the test releases it): what ran at once and on which worker is read
// from the order of those reports, never from how long anything took.

const OPTIONS: AnswerOptions = { publicUrl: 'https://plan.example', candidateBudget: 20_000 };
const OBSERVED = new URL('./support/observed-ask-worker.ts', import.meta.url);

const events: WorkerEvent[] = [];
const waiters = new Set<() => void>();
const channel = new BroadcastChannel(OBSERVED_WORKER_CHANNEL);
channel.onmessage = (message) => {
  events.push((message as { data: WorkerEvent }).data);
  for (const check of waiters) check();
};
afterAll(() => channel.close());

/** The first event of `phase` for `question`, once the worker has reported it (no timer: it waits on the reports). */
function seen(phase: WorkerEvent['phase'], question: string): Promise<WorkerEvent> {
  return new Promise((resolve) => {
    const check = () => {
      const event = events.find((e) => e.phase === phase && e.question === question);
      if (event === undefined) return;
      waiters.delete(check);
      resolve(event);
    };
    waiters.add(check);
    check();
  });
}
const at = (phase: WorkerEvent['phase'], question: string) => events.findIndex((e) => e.phase === phase && e.question === question);
const threadOf = (question: string) => events.find((e) => e.phase === 'start' && e.question === question)?.threadId;
/** Lets a held question go on. */
function release(question: string): void {
  const start = events.find((e) => e.phase === 'start' && e.question === question);
  if (start?.phase !== 'start' || start.gate === undefined) throw new Error(`${question} is not held`);
  Atomics.store(start.gate, 0, 1);
  Atomics.notify(start.gate, 0);
}

let answerers: BackgroundAnswerer[] = [];
const answerer = (options: Parameters<typeof createBackgroundAnswerer>[0] = {}) => {
  const made = createBackgroundAnswerer({ workerUrl: OBSERVED, ...options });
  answerers.push(made);
  return made;
};
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(answerers.map((a) => a.close()));
  answerers = [];
  events.length = 0;
  waiters.clear();
  vi.restoreAllMocks();
});

describe('defaultWorkerCount', () => {
  it.each([[1, 1], [2, 1], [3, 2], [4, 3], [5, 4], [8, 4], [64, 4]])('on %i cores is %i: one core left to the server, at least one worker, at most four', (cores, workers) => {
    expect(defaultWorkerCount(cores)).toBe(workers);
  });

  it('refuses a pool of no workers or of part of one', () => {
    expect(() => createBackgroundAnswerer({ workers: 0 })).toThrow(RangeError);
    expect(() => createBackgroundAnswerer({ workers: 1.5 })).toThrow(RangeError);
  });
});

describe('createBackgroundAnswerer with workers: 2', () => {
  it('runs two questions at once, on two workers: both start before either ends', async () => {
    const background = answerer({ workers: 2 });
    const answers = [background.answer('help [hold] a', OPTIONS), background.answer('help [hold] b', OPTIONS)];
    await Promise.all([seen('start', 'help [hold] a'), seen('start', 'help [hold] b')]);
    expect(events.filter((e) => e.phase === 'end')).toEqual([]);
    expect(threadOf('help [hold] a')).not.toBe(threadOf('help [hold] b'));
    release('help [hold] a');
    release('help [hold] b');
    expect((await Promise.all(answers)).map((a) => a.question)).toEqual(['help [hold] a', 'help [hold] b']);
  });

  it('starts a third question only when a worker is free, on the worker freed, and in the order asked', async () => {
    const background = answerer({ workers: 2 });
    const questions = ['help [hold] a', 'help [hold] b', 'help [hold] c', 'help [hold] d'];
    const answers = questions.map((q) => background.answer(q, OPTIONS));
    await Promise.all([seen('start', 'help [hold] a'), seen('start', 'help [hold] b')]);
    release('help [hold] b');
    await seen('start', 'help [hold] c');
    expect(at('end', 'help [hold] b')).toBeLessThan(at('start', 'help [hold] c'));
    expect(threadOf('help [hold] c')).toBe(threadOf('help [hold] b'));
    release('help [hold] a');
    await seen('start', 'help [hold] d');
    expect(at('end', 'help [hold] a')).toBeLessThan(at('start', 'help [hold] d'));
    expect(threadOf('help [hold] d')).toBe(threadOf('help [hold] a'));
    release('help [hold] c');
    release('help [hold] d');
    expect((await Promise.all(answers)).map((a) => a.question)).toEqual(questions);
    expect(new Set(events.map((e) => e.threadId)).size).toBe(2);
  });

  it('fails only the question that crashes its worker: the other runs on, and the next starts a fresh worker', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const background = answerer({ workers: 2 });
    const held = background.answer('help [hold] a', OPTIONS);
    await seen('start', 'help [hold] a');
    await expect(background.answer('help [exit] b', OPTIONS)).rejects.toThrow(/exited with code 3/);
    expect(errors.mock.calls.flat().join(' ')).toMatch(/exited \(code 3\) during a question; it is restarted/);
    const next = background.answer('help [hold] c', OPTIONS);
    await seen('start', 'help [hold] c');
    expect(new Set([threadOf('help [hold] a'), threadOf('help [exit] b'), threadOf('help [hold] c')]).size).toBe(3);
    release('help [hold] a');
    release('help [hold] c');
    expect((await held).question).toBe('help [hold] a');
    expect((await next).question).toBe('help [hold] c');
  });

  it('ends only the worker whose question runs past its time: the question on the other is answered, on a worker still running', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Fake timers (the answerer's setTimeout only): the test moves time, so which question overruns is not a race.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const background = answerer({ workers: 2, timeoutSeconds: 10 });
    const stuck = background.answer('help [hang] a', OPTIONS);
    await seen('start', 'help [hang] a');
    vi.advanceTimersByTime(5_000);
    const held = background.answer('help [hold] b', OPTIONS);
    await seen('start', 'help [hold] b');
    vi.advanceTimersByTime(5_000); // a has run 10 s, b 5 s
    await expect(stuck).rejects.toThrow(/ran past its time/);
    release('help [hold] b');
    expect((await held).question).toBe('help [hold] b');
    const after = background.answer('help c', OPTIONS);
    expect((await after).question).toBe('help c');
    expect(threadOf('help c')).toBe(threadOf('help [hold] b'));
  });

  it('once closed, fails what runs and what waits, and ends every worker', async () => {
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    const background = answerer({ workers: 2 });
    const answers = ['help [hold] a', 'help [hold] b', 'help [hold] c'].map((q) => background.answer(q, OPTIONS));
    const outcomes = Promise.allSettled(answers);
    await Promise.all([seen('start', 'help [hold] a'), seen('start', 'help [hold] b')]);
    await background.close();
    expect((await outcomes).map((o) => o.status === 'rejected' && String(o.reason))).toEqual(Array(3).fill('PoolClosedError: the answer worker is closed'));
    const ended = new Set(terminate.mock.contexts as Worker[]);
    expect(ended.size).toBe(2);
    for (const worker of ended) expect(worker.threadId).toBe(-1); // -1 once a worker has exited
    await expect(background.answer('help', OPTIONS)).rejects.toThrow(/closed/);
  });
});

describe('createBackgroundAnswerer starts workers only as questions need them', () => {
  it('starts none for a server asked nothing: closing it has no worker to end', async () => {
    const terminate = vi.spyOn(Worker.prototype, 'terminate');
    await answerer({ workers: 4 }).close();
    expect(terminate).not.toHaveBeenCalled();
  });

  it('answers questions asked one after another on one worker, however many it may start', async () => {
    const background = answerer({ workers: 4 });
    for (const question of ['help a', 'help b', 'help c']) await background.answer(question, OPTIONS);
    expect(new Set(events.map((e) => e.threadId)).size).toBe(1);
  });
});

describe('createBackgroundAnswerer with workers: 1', () => {
  it('runs one question at a time, in the order asked, on its one worker', async () => {
    const background = answerer({ workers: 1 });
    const answers = [background.answer('help [hold] a', OPTIONS), background.answer('help [hold] b', OPTIONS)];
    await seen('start', 'help [hold] a');
    release('help [hold] a');
    await seen('start', 'help [hold] b');
    expect(at('end', 'help [hold] a')).toBeLessThan(at('start', 'help [hold] b'));
    expect(threadOf('help [hold] b')).toBe(threadOf('help [hold] a'));
    release('help [hold] b');
    expect((await Promise.all(answers)).map((a) => a.question)).toEqual(['help [hold] a', 'help [hold] b']);
  });
});
