import { describe, expect, it } from 'vitest';
import { parse } from '../src/parse.ts';

/**
 * A switch's words in another sense set no switch (lexicon/attention-kernel.ts, dropout.ts, pipeline-schedule.ts,
 * emulator.ts, fp8-params.ts, comm-overlap.ts), and a switch's spellings are read (QA).
 */
const BASE = 'how long to train llama3-70b on 2T tokens on 64 H100 nodes with tp 8 pp 4';

describe('other senses set no switch', () => {
  it.each([
    ['with vanilla attention instead of GQA', 'attentionKernel'], ['with standard attention heads', 'attentionKernel'],
    ['with 5% node dropout', 'dropout'], [', GPUs dropout 2% of the time', 'dropout'],
    [', eval interleaved every 1000 steps', 'schedule'], [', code and text data interleaved', 'schedule'],
    [', emulating a 4M-token batch with gradient accumulation', 'emulate'], ['in emulated fp8', 'emulate'],
    ['with fp8 weight gradients', 'fp8Params'], ['with the te', 'overlapTensorParallelComm'],
  ])('"%s": no %s', (phrase, field) => {
    const q = parse(`${BASE} ${phrase}`);
    expect(q.stated[field as 'dropout']).toBeUndefined();
    expect(q.stated).toMatchObject({ tensor: 8, pipeline: 4, nodes: 64 });
    // "Interleaved" alone is no schedule to say not read either.
    expect((q.notRead ?? []).map((n) => n.why)).not.toContainEqual(expect.stringMatching(/interleaved schedule needs/));
  });

  it('"13 billion parameters in fp8" is a model in FP8 arithmetic, its weights 16-bit', () => {
    const q = parse('memory for 13 billion parameters in fp8 with tp 2 on 8 h100');
    expect(q.stated.precision).toBe('fp8');
    expect(q.stated.fp8Params).toBeUndefined();
    expect(parse(`${BASE} with weights stored in fp8`).stated.fp8Params).toBe(true);
  });

  it('"te" overlaps only before a word of communication', () => {
    expect(parse(`${BASE} overlapping te comm with the gemms`).stated.overlapTensorParallelComm).toBe(true);
    expect(parse(`${BASE} overlapping the comm with the gemms`).stated.overlapTensorParallelComm).toBeUndefined();
  });
});

describe('spellings and counts of the switches', () => {
  it.each(['vp 2 interleaved with 2 chunks', 'interleaved schedule of 2', 'interleaved with 2 chunks per stage', 'with 2 chunks per stage', 'with two model chunks'])(
    '"%s": 2 model chunks a stage, nothing unread', (phrase) => {
      const q = parse(`${BASE}, ${phrase}`);
      expect(q.stated.virtualStages).toBe(2);
      expect(q.notRead ?? []).toEqual([]);
    },
  );

  it.each([['G-Pipe', 'gpipe'], ['1F-1B', '1f1b']])('"%s": schedule %s, no model read from it', (phrase, schedule) => {
    const q = parse(`${BASE}, ${phrase}`);
    expect(q.stated.schedule).toBe(schedule);
    expect(q.notRead ?? []).toEqual([]);
  });

  it('"drop-out" is dropout; "recompute four layers" is 4 layers', () => {
    expect(parse(`${BASE}, with drop-out`).stated.dropout).toBe(true);
    expect(parse(`${BASE}, recompute four layers`).stated).toMatchObject({ recomputeLayers: 4, recompute: 'full' });
  });

  it('a note quotes the words typed, never the blanks of a phrase read between them', () => {
    const q = parse('how long to train llama3-70b on 2T tokens on 64 H100 nodes with tp 8 fp8 params in bf16');
    expect(q.notRead?.map((n) => n.phrase)).toContain('"fp8 params"');
  });
});
