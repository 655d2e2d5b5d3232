import { POST_OPERATIONS } from '@trainplan/api';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackgroundOperations, type BackgroundOperations } from '../src/background-operations.ts';

// The API's slow operations on worker threads, as `npm start` runs them (../src/main.ts), here under vitest.
const NODES = { model: 'gpt3-1.3b', cluster: { gpu: 'a100-80gb' }, training: { globalBatchSize: 64 }, tokens: 1e9, days: 30 };
const nodes = POST_OPERATIONS.find((op) => op.path === '/v1/nodes')!;
const valid = (() => {
  const v = nodes.validate(NODES);
  if (!v.ok) throw new Error('invalid');
  return v.value;
})();

let made: BackgroundOperations[] = [];
const operations = (options: Parameters<typeof createBackgroundOperations>[0] = {}) => {
  const m = createBackgroundOperations(options);
  made.push(m);
  return m;
};
afterEach(async () => {
  await Promise.all(made.map((m) => m.close()));
  made = [];
});

describe('createBackgroundOperations', () => {
  it('runs an operation by its path on a worker: the same result as running it here', async () => {
    expect(await operations({ workers: 1 }).run('/v1/nodes', valid)).toStrictEqual(nodes.run(valid));
  });

  it('runs an estimate that emulates on a worker (an array with a malformed slot): the same answer as here', async () => {
    const estimate = POST_OPERATIONS.find((op) => op.path === '/v1/estimate')!;
    const emulated = { model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 8, communicationModel: 'emulated' }, training: { globalBatchSize: 96 }, parallelism: { tensor: 8, pipeline: 8 } };
    const v = estimate.validate([emulated, { model: 'gpt3-175b' }]);
    if (!v.ok) throw new Error('invalid');
    expect(await operations({ workers: 1 }).run('/v1/estimate', v.value)).toStrictEqual(estimate.run(v.value));
  });

  it('with its one worker busy and maxQueued waiting, answers busy at once, and still runs those it took', async () => {
    const background = operations({ workers: 1, maxQueued: 1 });
    const running = background.run('/v1/nodes', valid);
    const waiting = background.run('/v1/nodes', valid);
    expect(await background.run('/v1/nodes', valid)).toEqual({ busy: { retryAfterSeconds: 5 } });
    const expected = nodes.run(valid);
    expect(await running).toStrictEqual(expected);
    expect(await waiting).toStrictEqual(expected);
  });

  it('closed under its requests (the server stopping), answers them busy and stopping, a 503 in the API rather than a 500 of ours', async () => {
    const background = operations({ workers: 1 });
    const running = background.run('/v1/nodes', valid);
    const waiting = background.run('/v1/nodes', valid);
    await background.close();
    const stopping = { busy: { retryAfterSeconds: 5, stopping: true } };
    expect(await running).toEqual(stopping);
    expect(await waiting).toEqual(stopping);
    expect(await background.run('/v1/nodes', valid)).toEqual(stopping);
  });

  it('a path it has no operation for fails that request (a 500 in the API), and the worker runs the next', async () => {
    const background = operations({ workers: 1 });
    await expect(background.run('/v1/nothing', {})).rejects.toMatchObject({ name: 'RangeError' });
    expect(await background.run('/v1/nodes', valid)).toStrictEqual(nodes.run(valid));
  });
});
