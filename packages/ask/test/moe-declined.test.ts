import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { parse } from '../src/parse.ts';

const OPTIONS = { publicUrl: null, today: '2026-11-28' } as const;

/**
 * A mixture-of-experts model named by its kind ("a 671B MoE", "8 experts top-2", "a mixture of experts 8x22B") is declined, as
 * "Mixtral" is: every preset is a dense decoder, and a dense plan of its total size would count every expert in every token.
 * QA found "a 671b moe model" and "a 47B MoE with 8 experts top-2" planned as dense 671B and 47B models with nothing said, and
 * "a mixture of experts 8x22b model" answered "name a model".
 */
describe('a mixture-of-experts model is declined, never planned dense', () => {
  it.each([
    ['how long to train a 671b moe model on 2048 h100 for 14.8T tokens', '671B'],
    ['how long to train a 47B MoE with 8 experts top-2 on 256 H100 for 1T tokens', '47B'],
    ['how many h100 for a mixture of experts 8x22b model', '8x22B'],
    ['how long to train 47B with 8 experts on 256 H100 for 1T tokens', '47B'],
    ['serve a 8x7b moe on 8 h100', '8x7B'],
  ])('"%s" is declined as a mixture-of-experts model (%s)', (question, size) => {
    const q = parse(question, OPTIONS);
    expect(q.stated.model).toBeUndefined();
    expect(q.stated.customModel).toBeUndefined();
    expect(q.problems).toHaveLength(1);
    expect(q.problems[0]).toMatch(new RegExp(`^the model asked is a mixture-of-experts model \\(${size}\\): MoE and expert parallelism are not modelled \\(every preset is a dense decoder\\), and planned as a dense model of its total size, each token's compute would be overstated about total/activated times`));
    // The experts' count and the size are the one model declined, never a second model said not read.
    expect(q.notRead).toEqual([]);
    const a = ask(question, OPTIONS);
    expect(a.ok).toBe(false);
    expect(a.headline).toContain('mixture-of-experts');
    expect(a.headline).not.toContain('name a model');
  });

  it('a dense model beside a node count written "16x8" is no mixture of experts', () => {
    const q = parse('how long to train a 7b on 1T tokens on 16x8 h100', OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject({ model: 'llama2-7b', nodes: 16, gpusPerNode: 8 });
  });
});

/**
 * A mixture of experts given by its active parameters, by a name that states them ("-A22B"), or by a family no preset has
 * (DeepSeek-V3, Kimi K2, …) is declined as an MoE, with its published total and activated sizes and how far a dense plan of
 * its total would overstate each token's compute (total/activated). QA: "a 671B model with 37B active parameters" was planned
 * as a dense 671B model with only "Not read: the model 37B", and DeepSeek-V3 and Qwen3-235B-A22B were pointed at a dense size.
 */
describe('an MoE by its active parameters, its name or its family is declined with the overstatement a dense plan makes', () => {
  it.each([
    'how many H100 nodes to train a 671B model with 37B active parameters on 15T tokens in 60 days',
    'how many H100 nodes to train a 671B total and 37B activated params model on 15T tokens in 60 days',
    'how many H100 nodes to train a model of 37B active of 671B on 15T tokens in 60 days',
  ])('"%s": 671B total, 37B active, ~18× (671/37 = 18.1)', (question) => {
    const q = parse(question, OPTIONS);
    expect(q.stated.model).toBeUndefined();
    expect(q.stated.customModel).toBeUndefined();
    expect(q.problems).toEqual([
      'the model asked is a mixture-of-experts model (671B total, 37B activated per token): MoE and expert parallelism are not modelled '
      + '(every preset is a dense decoder), and planned as a dense 671B model each token\'s compute would be overstated ~18× (671B/37B)',
    ]);
    // The active size is the same model's, never a second model said not read.
    expect(q.notRead).toEqual([]);
    const a = ask(question, OPTIONS);
    expect(a.kind).toBe('refusal');
    expect(a.scenario).toBeUndefined();
  });

  // Each family's sizes as its source publishes them; the ratio is total/activated to two figures.
  it.each([
    ['how long to train Qwen3-235B-A22B on 36T tokens on 512 H100', 'Qwen3-235B-A22B', '235B total, 22B activated', '~11×'],
    ['how long to train DeepSeek-V3 on 14.8T tokens on 2048 H100', 'DeepSeek-V3', '671B total, 37B activated', '~18×'],
    ['how long to train deepseek r1 on 256 h100', 'DeepSeek-R1', '671B total, 37B activated', '~18×'],
    ['how long to train deepseek-v2 on 8T tokens on 256 h100', 'DeepSeek-V2', '236B total, 21B activated', '~11×'],
    ['how long to train OLMoE on 5T tokens on 256 H100', 'OLMoE', '7B total, 1B activated', '~7×'],
    ['how long to train Kimi K2 on 15T tokens on 2048 H100', 'Kimi K2', '1T total, 32B activated', '~31×'],
    ['how long to train Snowflake Arctic on 3.5T tokens on 1024 H100', 'Snowflake Arctic', '480B total, 17B activated', '~28×'],
    ['how long to train GLaM on 1.6T tokens on 1024 H100', 'GLaM', '1.2T total, 96.6B activated', '~12×'],
    ['how long would mixtral 8x7b take on 64 H100', 'Mixtral 8x7B', '47B total, 13B activated', '~3.6×'],
    // Meta's Llama 4 model card (2025-04-05): Scout 109B/17B, Maverick 400B/17B. QA: "not a known model", as GPT-2 is.
    ['how long to train llama4 scout on 2T tokens on 512 H100', 'Llama 4 Scout', '109B total, 17B activated', '~6.4×'],
    ['how long to train Llama 4 Maverick on 2T tokens on 512 H100', 'Llama 4 Maverick', '400B total, 17B activated', '~24×'],
  ])('"%s": %s is an MoE (%s per token), a dense plan %s over', (question, name, sizes, ratio) => {
    const q = parse(question, OPTIONS);
    expect(q.stated.model).toBeUndefined();
    expect(q.stated.customModel).toBeUndefined();
    const [problem] = q.problems;
    expect(problem).toContain(`${name} is a mixture-of-experts model (${sizes} per token`);
    expect(problem).toContain('MoE and expert parallelism are not modelled');
    expect(problem).toContain(`would be overstated ${ratio}`);
    // Never the dense pointers these names had: "ask for a 235B model", "name a size (a 70B model)".
    expect(q.problems.join(' ')).not.toMatch(/ask for "a \d+B model"|a size \("a 70B model"\)/);
  });

  it.each([
    ['serve Llama-4-Scout-17B-16E-Instruct on 8 H100', 'Llama 4 Scout'],
    ['serve llama-4-maverick-17b-128e on 8 H100', 'Llama 4 Maverick'],
  ])('"%s": a checkpoint\'s name is one model, its 17B never a dense 17B said apart', (question, name) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toHaveLength(1);
    expect(q.problems[0]).toMatch(new RegExp(`^${name} is a mixture-of-experts model \\(`));
    expect(q.notRead).toEqual([]);
    expect(q.stated.customModel).toBeUndefined();
  });

  it.each([
    ['how long to train llama 4 on 2T tokens on 512 H100', 'Llama 4'],
    ['how long to train llama-4-behemoth on 2T tokens on 512 H100', 'Llama 4 Behemoth'],
  ])('"%s": every Llama 4 is an MoE, declined as one with no size of its own', (question, name) => {
    expect(parse(question, OPTIONS).problems).toEqual([expect.stringMatching(new RegExp(`^${name} is a mixture-of-experts model: MoE and expert parallelism are not modelled`))]);
  });

  it('a family with no published activated size is declined with DeepSeek-V3\'s for scale', () => {
    const q = parse('how long to train a Switch Transformer on 256 H100', OPTIONS);
    expect(q.problems).toEqual([expect.stringMatching(/^Switch Transformer is a mixture-of-experts model: MoE and expert parallelism are not modelled .*DeepSeek-V3: 671B total, 37B activated per token, ~18×: arXiv:2412\.19437\)$/)]);
  });
});

/**
 * Expert parallelism splits an MoE's experts over GPUs: a question that names it asks of an MoE, and is declined as one. QA:
 * "64 H100 nodes with 8-way expert parallelism" was read as 64 GPUs of 8 a node, and "EP=8" as a number not read.
 */
describe('expert parallelism is declined as an MoE\'s, its count never a cluster size', () => {
  it.each([
    ['how long to train a 70B model on 64 H100 nodes with 8-way expert parallelism', '8-way expert parallelism'],
    ['how long to train a 70B model on 64 H100 nodes with EP=8', 'EP=8'],
    ['how long to train a 70B model on 64 H100 nodes with EP 8', 'EP 8'],
    ['how long to train a 70B model on 64 H100 nodes with expert parallel size 8', 'expert parallel size 8'],
    // "ep" in lower case is expert parallelism as a setting ("ep=8") or with experts named; alone it is an epoch (below).
    ['how long to train a 70B model on 64 H100 nodes with ep=8', 'ep=8'],
    ['how long to train a 70B model on 64 H100 nodes with ep 8 across its experts', 'ep 8'],
  ])('"%s" is declined naming "%s"', (question, phrase) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([expect.stringMatching(new RegExp(`^expert parallelism \\("${phrase}"\\) splits a mixture-of-experts model's experts over GPUs: MoE and expert parallelism are not modelled`))]);
    expect(q.stated).toMatchObject({ nodes: 64 });
    expect(q.stated.gpusPerNode).toBeUndefined();
    expect(q.stated.gpus).toBeUndefined();
    expect(ask(question, OPTIONS).kind).toBe('refusal');
  });
});

describe('near misses of the MoE words are still planned', () => {
  it.each([
    ['how long to train Llama 3 70B on 15T tokens on 1024 H100', { model: 'llama3-70b', gpus: 1024 }],
    ['how long to train llama3-70b on 64 H100 nodes with 8-way tensor parallel', { model: 'llama3-70b', nodes: 64, tensor: 8 }],
    ['how long to train llama3-8b on 1T tokens on 64 h100 behind one switch', { model: 'llama3-8b', gpus: 64 }],
  ])('"%s" is planned', (question, stated) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject(stated);
  });

  it.each([
    'serve llama3-8b to 64 active users on 1 h100',
    'serve llama3-70b to 1M active users on 64 h100',
    'serve llama3-70b to 1B active users on 4096 h100',
  ])('"%s": active users are users counted, never an active-parameter count', (question) => {
    const q = parse(question, OPTIONS);
    expect(q.problems.join(' ')).not.toContain('mixture-of-experts');
    expect(q.stated.model).toMatch(/^llama3-/);
  });

  it('a dense DeepSeek (no version of the MoE line) keeps the dense refusal with its size to ask', () => {
    expect(parse('how long to train deepseek 67b on 64 h100', OPTIONS).problems[0]).toMatch(/^DeepSeek 67B is not modelled \(no preset has its shape\); ask for "a 67B model"/);
  });
});

/**
 * "ep" also shortens "epoch": "at ep 3" was declined as expert parallelism (QA). Written in lower case with no setting's "=" and
 * no experts named, it is an epoch, and epochs are said not read (a plan counts tokens); "3 epochs" is said so too.
 */
describe('"ep 3" and "3 epochs" are epochs, said not read, never expert parallelism', () => {
  const EPOCHS = 'epochs are not read: a plan counts the tokens it trains on; give them, e.g. "3T tokens" for 3 epochs of 1T';

  it.each([
    ['how long to train llama3-8b on 1T tokens on 64 H100 at ep 3', '"at ep 3"', `"ep" taken as an epoch, not expert parallelism, which is written "EP 8" or "expert parallelism 8" and declined, MoE not being modelled; ${EPOCHS}`],
    ['how long to train llama3-8b on 1T tokens on 64 H100 for 3 epochs', '"for 3 epochs"', EPOCHS],
  ])('"%s"', (question, phrase, why) => {
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated).toMatchObject({ model: 'llama3-8b', tokens: 1e12, gpus: 64 });
    expect(q.notRead).toEqual([{ phrase, why }]);
    expect(ask(question, OPTIONS).kind).toBe('answer');
  });

  it('"EP 8" as typed in capitals is expert parallelism, declined', () => {
    const q = parse('how long to train llama3-8b on 1T tokens on 64 H100 with EP 8', OPTIONS);
    expect(q.problems).toEqual([expect.stringMatching(/^expert parallelism \("EP 8"\) splits a mixture-of-experts model's experts over GPUs/)]);
  });
});

/**
 * Active parameters equal to the model's size (within 5%) are a dense model's: every parameter is used by every token, as in
 * every preset, so the model is planned, said. QA: "a 7B model … with 7B active parameters" was declined as an MoE.
 */
describe('active parameters as large as the model are a dense model, planned', () => {
  it('"a 7B model … with 7B active parameters" is Llama 2 7B, said dense', () => {
    const question = 'how long to train a 7B model on 1T tokens on 64 H100 with 7B active parameters';
    const q = parse(question, OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.notRead).toEqual([]);
    expect(q.stated).toMatchObject({ model: 'llama2-7b', tokens: 1e12, gpus: 64 });
    expect(q.defaults.map((d) => d.text)).toContain('"7B active parameters" read as a dense model\'s: 7B active of 7B is every parameter, '
      + 'each used by every token, as in every preset (a mixture of experts activates a share of its total)');
    expect(ask(question, OPTIONS).ok).toBe(true);
  });

  it('"a 30B model with 30B active parameters" (within the sentence, no preset of 30B) is the custom 30B decoder, planned', () => {
    const q = parse('how long to train a 30B model with 30B active parameters on 1T tokens on 64 H100', OPTIONS);
    expect(q.problems).toEqual([]);
    expect(q.stated.customModel?.askedParameters).toBe(30e9);
  });

  it('active parameters apart from a larger model state both sizes in the MoE refusal: 47B total, 13B active, 47/13 = 3.6×', () => {
    const q = parse('how long to train a 47B model on 1T tokens on 64 H100 with 13B active parameters', OPTIONS);
    expect(q.problems).toEqual(['the model asked is a mixture-of-experts model (47B total, 13B activated per token): MoE and expert parallelism are not modelled '
      + '(every preset is a dense decoder), and planned as a dense 47B model each token\'s compute would be overstated ~3.6× (47B/13B)']);
    expect(q.notRead).toEqual([]);
  });

  it('active parameters with no total anywhere are still declined as an MoE\'s', () => {
    expect(parse('how long to train a model with 37B active parameters on 64 H100', OPTIONS).problems)
      .toEqual([expect.stringMatching(/^the model asked is a mixture-of-experts model \(37B active\): MoE and expert parallelism are not modelled/)]);
  });
});
