import { Ajv2020 } from 'ajv/dist/2020.js';
import { deadlineBatchFor, defaultBatch, defaultBatchNote } from '@trainplan/ask';
import { runNodes, type JsonSchema, type NodesResponseJson } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { createApi, POST_OPERATIONS, type RunInBackground } from '../src/index.ts';
import { nodesAnswerOf, postNodes } from './support/nodes-post.ts';

// POST /v1/nodes without training.globalBatchSize (QA: a 400 where `trainplan nodes` without --global-batch and the chat
// bot answer): planned as the CLI plans it. The expectations are the CLI's path taken by hand: its request builder fills
// the batch from @trainplan/ask's defaultBatch (apps/cli/src/commands/nodes.ts fromFlags) and its runNodes call plans
// each size at deadlineBatchFor, --nodes N too (sizeBatch). The searches are kept small (Llama 3 8B, a narrowed space)
// so each takes a fraction of a second, but for the QA case of nodes 103, whose plan needs the whole space.


const MODEL = 'llama3-8b';
const GPU = 'h100-sxm';
// The CLI's --model and --gpu as ask takes them (apps/cli/src/default-batch.ts askParameters: --gpu as a GPU or a system id).
const ASK = { model: MODEL, gpu: GPU, system: GPU };
const CONSTRAINTS = { maxTensor: 8, maxPipeline: 4, maxContext: 1, maxVirtualStages: 1, microBatchSizes: [1], recompute: ['full'] };
const BASE = { model: MODEL, cluster: { gpu: GPU }, tokens: 100e9, constraints: CONSTRAINTS };
/** By hand: Llama 3 8B states no published batch, so the default aims at 4M tokens (4,194,304) / 8,192 a sequence = 512 sequences. */
const UNSIZED_BATCH = 512;
/**
 * By hand (ask default-batch.ts batchStep, withTwos): 3 nodes of 8 H100 are 24 GPUs; model parallelism takes 8 (the
 * largest power of two ≤ 64 dividing 24), leaving data-parallel steps of 3. The step 3 × 2^k with the most twos whose
 * multiple nearest 512 stays within 10% of it is 96 (192's nearest, 576, is 12.5% off): 96 × 5 = 480, 6.25% under 512.
 */
const THREE_NODE_BATCH = 480;

/** What a user compares between the CLI's report and the API's answer: the size, the days, the plan and its batch. */
const headline = (a: NodesResponseJson) => (a.ok
  ? { ok: true, nodes: a.nodes, days: a.days, label: a.configuration.label, batch: a.configuration.scenario.training.globalBatchSize }
  : { ok: false, reason: a.reason });

describe('POST /v1/nodes without training.globalBatchSize: planned as the CLI without --global-batch plans it', () => {
  it("a deadline: each size at ask's deadlineBatchFor, the answer's nodes, days and configuration those of the CLI's runNodes call", async () => {
    const request = { ...BASE, training: {}, days: 7 };
    const answer = await nodesAnswerOf(request);
    const cli = runNodes({ ...request, training: { globalBatchSize: UNSIZED_BATCH } }, { globalBatchFor: deadlineBatchFor(ASK) });
    expect(headline(answer)).toEqual(headline(cli));
    if (!answer.ok) throw new Error(answer.message);
    // The size's own batch, not the request's filled one: the answer's size took deadlineBatchFor's batch for it, and the
    // assumed field names that batch and size.
    const own = deadlineBatchFor(ASK)(answer.nodes);
    expect(answer.configuration.scenario.training.globalBatchSize).toBe(own);
    expect(own).not.toBe(UNSIZED_BATCH);
    expect(answer.assumedGlobalBatch).toMatchObject({ sequences: own, nodes: answer.nodes });
    expect(answer.assumedGlobalBatch?.note).toContain(defaultBatchNote(defaultBatch({ ...ASK, nodes: answer.nodes })));
  });

  it("training absent and a GPU-hour budget: the same as the CLI's budget search at deadlineBatchFor", async () => {
    const request = { ...BASE, gpuHours: 5000 };
    const answer = await nodesAnswerOf(request);
    const cli = runNodes({ ...request, training: { globalBatchSize: UNSIZED_BATCH } }, { globalBatchFor: deadlineBatchFor(ASK) });
    expect(answer).toMatchObject({ ok: true, mode: 'fastest-within-budget' });
    expect(headline(answer)).toEqual(headline(cli));
    if (answer.ok) expect(answer.assumedGlobalBatch).toMatchObject({ sequences: deadlineBatchFor(ASK)(answer.nodes), nodes: answer.nodes });
  });

  it('a size planned at the batch across its aim (faster there) says so, and how to plan it alone, in the request\'s fields', async () => {
    // QA: Llama 3 8B on H100, 15T tokens, 30 days: 112 nodes' own 560 sequences take 30.8 days, 448 take 27.5 (ask's
    // deadlineBatchFor.alternativeFor); each size is planned at both, the faster taken.
    const request = { model: MODEL, cluster: { gpu: GPU }, tokens: 15e12, days: 30 };
    const answer = await nodesAnswerOf(request);
    if (!answer.ok) throw new Error(answer.message);
    const batchFor = deadlineBatchFor(ASK);
    const used = answer.configuration.scenario.training.globalBatchSize;
    expect(used).toBe(batchFor.alternativeFor(answer.nodes));
    expect(answer.assumedGlobalBatch).toMatchObject({ sequences: used, nodes: answer.nodes });
    expect(answer.assumedGlobalBatch?.note).toContain(`faster on this size than the ${batchFor(answer.nodes)} its own default rounds to`);
    expect(answer.assumedGlobalBatch?.note).toContain(`a request with nodes ${answer.nodes} and training.globalBatchSize ${used} plans that size alone at it`);
    expect(answer.assumedGlobalBatch?.note).not.toMatch(/--nodes|--global-batch/);
    // That request answers the same days.
    const alone = await nodesAnswerOf({ ...request, days: undefined, nodes: answer.nodes, training: { globalBatchSize: used } });
    expect(alone.ok && alone.days).toBe(answer.days);
  });

  it(`nodes: 3 plans 3 nodes at ask's defaultBatch for 3 nodes, ${THREE_NODE_BATCH} sequences rather than the ${UNSIZED_BATCH} of 4M tokens`, async () => {
    const sized = defaultBatch({ ...ASK, nodes: 3 });
    expect(sized.sequences).toBe(THREE_NODE_BATCH);
    const request = { ...BASE, training: {}, nodes: 3 };
    const answer = await nodesAnswerOf(request);
    const cli = runNodes({ ...request, training: { globalBatchSize: sized.sequences } }, { globalBatchFor: deadlineBatchFor(ASK) });
    expect(answer).toMatchObject({ ok: true, mode: 'days-on-nodes', nodes: 3 });
    expect(headline(answer)).toEqual(headline(cli));
    expect(answer.assumedGlobalBatch).toEqual({ sequences: THREE_NODE_BATCH, nodes: 3, note: `training.globalBatchSize omitted: ${defaultBatchNote(sized)}` });
  });

  it('days 30 answers 103 nodes (QA); nodes 103 answers the same plan and days, to the bit, at the batch the deadline took there', async () => {
    const qa = { model: MODEL, cluster: { gpu: GPU }, tokens: 15e12, training: {} };
    const deadline = await nodesAnswerOf({ ...qa, days: 30 });
    if (!deadline.ok) throw new Error(deadline.message);
    expect(deadline.nodes).toBe(103);
    const answer = await nodesAnswerOf({ ...qa, nodes: 103 });
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.seconds).toBe(deadline.seconds);
    expect(answer.configuration.scenario).toEqual(deadline.configuration.scenario);
    // By hand: 103 is prime; its own default 515 = 5 · 103 leaves 103-way data parallelism, the multiple across the aim,
    // 412 = 4 · 103, 412-way: the faster, taken by both, and said with how to plan the size at its own default.
    expect(answer.assumedGlobalBatch).toMatchObject({ sequences: 412, nodes: 103 });
    expect(answer.assumedGlobalBatch?.note).toMatch(/faster on this size than the 515 .*; a request with training\.globalBatchSize 515 plans it at its own default$/);
  });

  it('cluster.gpusPerNode sizes the cluster the default is rounded for, as the CLI\'s --gpus-per-node does: 1,024 nodes of 4 H100 take 512', async () => {
    // By hand: 1,024 × 8 GPUs would aim at one sequence per 8 GPUs, 1,024 (more than 4M tokens' 512); 1,024 × 4 = 4,096
    // GPUs aim at 512, 4M tokens.
    expect(defaultBatch({ ...ASK, nodes: 1024 }).sequences).toBe(1024);
    const sized = defaultBatch({ ...ASK, gpusPerNode: 4, nodes: 1024 });
    expect(sized.sequences).toBe(UNSIZED_BATCH);
    const answer = await nodesAnswerOf({ ...BASE, cluster: { gpu: GPU, gpusPerNode: 4 }, training: {}, nodes: 1024 });
    expect(answer.assumedGlobalBatch).toEqual({ sequences: UNSIZED_BATCH, nodes: 1024, note: `training.globalBatchSize omitted: ${defaultBatchNote(sized)}` });
  });

  it('assumedGlobalBatch is there only when the batch was omitted: the same request with its batch given answers without it', async () => {
    const omitted = await nodesAnswerOf({ ...BASE, training: {}, nodes: 3 });
    const given = await nodesAnswerOf({ ...BASE, training: { globalBatchSize: THREE_NODE_BATCH }, nodes: 3 });
    expect(omitted.assumedGlobalBatch).toBeDefined();
    expect(given).not.toHaveProperty('assumedGlobalBatch');
    // The batch is the only difference: given as the default would be, the plan is the same.
    expect(headline(given)).toEqual(headline(omitted));
  });

  it('a token budget under one step of the default batch is refused as before, and the field names the batch it was checked at', async () => {
    // 1M tokens < 512 × 8,192 = 4,194,304 tokens a step (the default with no size): ok false, invalid, naming tokens.
    expect(defaultBatch(ASK).sequences).toBe(UNSIZED_BATCH);
    const answer = await nodesAnswerOf({ ...BASE, tokens: 1e6, days: 3 });
    expect(answer).toMatchObject({ ok: false, reason: 'invalid', issues: [{ path: 'tokens' }] });
    expect(answer.assumedGlobalBatch).toMatchObject({ sequences: UNSIZED_BATCH });
    expect(answer.assumedGlobalBatch).not.toHaveProperty('nodes');
  });

  it('the validated value crosses to a worker as plain data and answers there as here (ApiOptions.runInBackground)', async () => {
    const handed: unknown[] = [];
    const runInBackground: RunInBackground = async (path, value) => {
      // What a worker thread receives: a structured clone, no functions (infra/node/src/operation-worker.ts).
      const copy = structuredClone(value);
      handed.push(copy);
      return POST_OPERATIONS.find((op) => op.path === path)!.run(copy);
    };
    const body = { ...BASE, training: {}, nodes: 3 };
    const there = await (await createApi({ runInBackground }).request('/v1/nodes', {
      method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' },
    })).json();
    expect(handed).toHaveLength(1);
    expect(there).toEqual(await nodesAnswerOf(body));
  });
});

describe('POST /v1/nodes without a batch, where no default is taken: a 400 as before', () => {
  it.each([
    ['a model given by its shape', 'training.globalBatchSize', { model: { layers: 2, hiddenSize: 256, attentionHeads: 4, vocabSize: 1000, seqLength: 128 } }],
    ['an id no preset has', 'training.globalBatchSize', { model: 'no-such-model' }],
    ['a training that is no object', 'training', { training: 5 }],
  ])('%s: 400 naming %s alone', async (_, path, change) => {
    const res = await postNodes({ ...BASE, training: {}, days: 3, ...change });
    expect(res.status).toBe(400);
    const body = await res.json() as { issues: { path: string; message: string }[] };
    expect(body.issues.map((i) => i.path)).toEqual([path]);
  });
});

describe('/openapi.json describes the omitted batch', () => {
  type Media = { schema: JsonSchema };
  type Post = { description: string; requestBody: { content: Record<string, Media> }; responses: Record<string, { content: Record<string, Media> }> };
  const documented = async (): Promise<Post> =>
    ((await (await createApi().request('/openapi.json')).json()) as { paths: Record<string, { post: Post }> }).paths['/v1/nodes']!.post;

  it('the request: the batch optional for a preset id, required for a model object; the description no longer says required', async () => {
    const op = await documented();
    expect(op.description).toContain('assumedGlobalBatch');
    expect(op.description).not.toContain('required here');
    const valid = new Ajv2020({ strict: false }).compile(op.requestBody.content['application/json']!.schema);
    expect(valid({ model: MODEL, cluster: { gpu: GPU }, training: {}, tokens: 15e12, gpuHours: 5.7e6 })).toBe(true);
    expect(valid({ model: MODEL, cluster: { gpu: GPU }, tokens: 15e12, gpuHours: 5.7e6 })).toBe(true);
    const shape = { layers: 2, hiddenSize: 256, attentionHeads: 4, vocabSize: 1000, seqLength: 128 };
    expect(valid({ model: shape, cluster: { gpu: GPU }, training: {}, tokens: 1e9, days: 3 })).toBe(false);
    expect(valid({ model: shape, cluster: { gpu: GPU }, training: { globalBatchSize: 8 }, tokens: 1e9, days: 3 })).toBe(true);
  });

  it('the answer: assumedGlobalBatch documented on ok true and ok false, and a real answer with it valid', async () => {
    const op = await documented();
    const schema = op.responses['200']!.content['application/json']!.schema;
    for (const branch of schema.oneOf!) expect(Object.keys(branch.properties!)).toContain('assumedGlobalBatch');
    const valid = new Ajv2020({ strict: true, strictRequired: false, strictTypes: false }).compile(schema);
    const answer = await nodesAnswerOf({ ...BASE, training: {}, nodes: 3 });
    expect(valid(answer), JSON.stringify(valid.errors?.slice(0, 3))).toBe(true);
    expect(valid({ ...answer, assumedGlobalBatch: { sequences: 0, note: '' } })).toBe(false);
  });
});
