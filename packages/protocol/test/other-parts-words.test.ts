import { describe, expect, it } from 'vitest';
import { OTHER_PART_NAMES, estimateJsonSchema, otherPartsLargestFirst, type OtherMemoryPartsJson } from '../src/index.ts';

describe('the parts of "other" memory by name (one wording for the CLI and the chat bot)', () => {
  it('names every part the estimate\'s otherParts carries, each differently', () => {
    // The estimate's JSON Schema describes each part under its key.
    const schema = JSON.stringify(estimateJsonSchema);
    for (const key of Object.keys(OTHER_PART_NAMES)) expect(schema).toContain(`"${key}"`);
    const parts: OtherMemoryPartsJson = { runtimeReserveBytes: 1, fragmentationBytes: 1, zero3GatheredBytes: 1, optimizerStepBytes: 1 };
    expect(Object.keys(OTHER_PART_NAMES).sort()).toEqual(Object.keys(parts).sort());
    expect(new Set(Object.values(OTHER_PART_NAMES)).size).toBe(Object.keys(parts).length);
  });

  it('gives the parts that hold memory, largest first, equal ones in the names\' order', () => {
    expect(otherPartsLargestFirst({ runtimeReserveBytes: 1_610_612_736, fragmentationBytes: 3_000_000_000, zero3GatheredBytes: 0, optimizerStepBytes: 5 }))
      .toEqual([
        { name: 'allocator fragmentation', bytes: 3_000_000_000 },
        { name: 'runtime reserve', bytes: 1_610_612_736 },
        { name: "optimizer step's fp32 gradient copy", bytes: 5 },
      ]);
    expect(otherPartsLargestFirst({ runtimeReserveBytes: 7, fragmentationBytes: 7, zero3GatheredBytes: 7, optimizerStepBytes: 7 }).map((p) => p.name))
      .toEqual(['runtime reserve', 'allocator fragmentation', 'ZeRO-3 unit gathered whole', "optimizer step's fp32 gradient copy"]);
    expect(otherPartsLargestFirst({ runtimeReserveBytes: 0, fragmentationBytes: 0, zero3GatheredBytes: 0, optimizerStepBytes: 0 })).toEqual([]);
  });
});
