import { runEstimate } from '@trainplan/protocol';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.ts';
import { fakeIo } from '../support/fake-io.ts';
import { contractScenario } from '../support/scenarios.ts';

describe('trainplan estimate --emulate', () => {
  it("answers as the scenario with cluster.communicationModel 'emulated' does", async () => {
    const io = fakeIo({ stdin: JSON.stringify(contractScenario) });
    const code = await main(['estimate', '--input', '-', '--emulate', '--json'], io);
    expect(code).toBe(0);
    const expected = runEstimate({ ...contractScenario, cluster: { ...contractScenario.cluster, communicationModel: 'emulated' } });
    expect(JSON.parse(io.out())).toEqual(expected);
  });
});
