import { describe, expect, it } from 'vitest';
import { Gbps } from '@trainplan/units';
import { leafPortsAtNicRate } from '../../src/leaf-switch-ports.ts';
import { buildTopology } from '../../src/index.ts';
import { A100_FABRIC } from '../fixtures.ts';

describe('leaf switch ports at the NICs\' line rate', () => {
  it('a port as fast as the NIC is one link; one twice as fast is split into two (QM9700: 64 NDR ports, 128 NDR200 links)', () => {
    expect(leafPortsAtNicRate({ ports: 40, portBandwidth: Gbps(200) }, Gbps(200))).toBe(40);
    expect(leafPortsAtNicRate({ ports: 64, portBandwidth: Gbps(400) }, Gbps(400))).toBe(64);
    expect(leafPortsAtNicRate({ ports: 64, portBandwidth: Gbps(400) }, Gbps(200))).toBe(128);
    // Spectrum-4 SN5600: 64 × 800 GbE, 128 × 400 GbE on splitter cables (SN5000 user manual, Data Interfaces).
    expect(leafPortsAtNicRate({ ports: 64, portBandwidth: Gbps(800) }, Gbps(400))).toBe(128);
    // Whole links only: a 400 Gb/s port holds one 300 Gb/s link, not 1⅓.
    expect(leafPortsAtNicRate({ ports: 64, portBandwidth: Gbps(400) }, Gbps(300))).toBe(64);
  });

  it('refuses a port slower than the NIC (a 400 Gb/s NIC on a 200 Gb/s HDR port) and a leaf with no port to spare for an uplink', () => {
    expect(() => leafPortsAtNicRate({ ports: 40, portBandwidth: Gbps(200) }, Gbps(400))).toThrow(/200 Gb\/s ports are slower than the 400 Gb\/s NICs/);
    expect(() => leafPortsAtNicRate({ ports: 1, portBandwidth: Gbps(400) }, Gbps(400))).toThrow(/at least 2 ports/);
    // buildTopology, the one reader, refuses it too, rather than build a leaf of no ports.
    expect(() => buildTopology({ fabric: { ...A100_FABRIC, leafSwitch: { ports: 40, portBandwidth: Gbps(100) } }, nodes: 2 })).toThrow(RangeError);
  });

  it('keeps a port up however high R is: a 40-port leaf at 64:1 has 39 down, 1 up; at 1000:1 still 39, not 40 and no uplink', () => {
    // round(40 · 64/65) = 39; round(40 · 1000/1001) = 40, which would leave the leaf no uplink.
    expect(buildTopology({ fabric: A100_FABRIC, nodes: 1, oversubscription: 64 }).nodesPerLeaf).toBe(39);
    expect(buildTopology({ fabric: A100_FABRIC, nodes: 1, oversubscription: 1000 }).nodesPerLeaf).toBe(39);
  });
});
