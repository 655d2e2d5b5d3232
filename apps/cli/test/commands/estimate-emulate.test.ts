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

  it('the report header says the communication was emulated and on what fabric; without --emulate it says neither', async () => {
    const oversubscribed = { ...contractScenario, cluster: { ...contractScenario.cluster, oversubscription: 4 } };
    const header = async (argv: string[]) => {
      const io = fakeIo({ stdin: JSON.stringify(oversubscribed) });
      expect(await main(['estimate', '--input', '-', ...argv], io)).toBe(0);
      return io.out().split('\n')[0]!;
    };
    const emulated = await header(['--emulate']);
    expect(emulated).toContain('(128 nodes × 8, hdr-ib-8x, leaves 4:1 oversubscribed)');
    expect(emulated).toMatch(/ · communication emulated on the topology$/);
    // The closed form models no oversubscription (the estimate warns so): the header claims neither.
    const closed = await header([]);
    expect(closed).not.toContain('emulated');
    expect(closed).not.toContain('oversubscribed');
  });
});
