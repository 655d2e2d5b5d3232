import { describe, expect, it } from 'vitest';
import { toGBps, toUs } from '@trainplan/units';
import { NETWORK_IDS, NETWORK_SOURCES, NETWORKS, networkById } from '../src/networks.ts';

const CONTRACT_NETWORK_IDS = ['hdr-ib-8x', 'ndr-ib-8x', 'omnipath-4x', 'roce-400g-8x', 'nvl72'];
const ALL = Object.values(NETWORKS);

describe('NETWORKS', () => {
  it.each(CONTRACT_NETWORK_IDS)('has the contract id %s', (id) => expect(networkById(id)?.id).toBe(id));

  it('lists exactly the ids it holds', () => expect([...NETWORK_IDS].sort()).toEqual(Object.keys(NETWORKS).sort()));

  it.each([...NETWORK_IDS])('%s cites a source', (id) => expect(NETWORK_SOURCES[id].title.trim()).not.toBe(''));

  it('cites exactly the fabrics it holds: no orphan citation', () => expect(Object.keys(NETWORK_SOURCES).sort()).toEqual(Object.keys(NETWORKS).sort()));

  it.each([
    ['edr-ib-4x', 4, 12.5],
    ['hdr-ib-4x', 4, 25],
    ['hdr-ib-8x', 8, 25],
    // NDR200: a 200 Gb/s NDR port, 25 GB/s a direction.
    ['ndr200-ib-4x', 4, 25],
    ['ndr-ib-4x', 4, 50],
    ['ndr-ib-8x', 8, 50],
    ['omnipath-4x', 4, 12.5],
    ['roce-400g-8x', 8, 50],
    ['nvl72', 4, 50],
  ])('%s has %d NICs of %d GB/s per direction', (id, nics, gbps) => {
    const net = networkById(id)!;
    expect(net.nicsPerNode).toBe(nics);
    expect(toGBps(net.nicBandwidth)).toBe(gbps);
  });

  it.each(ALL)('$id has a small-message latency between 0.5 and 5 µs', (net) => {
    expect(toUs(net.latency)).toBeGreaterThan(0.5);
    expect(toUs(net.latency)).toBeLessThan(5);
  });

  it.each([
    ['hdr-ib-4x', true],
    ['hdr-ib-8x', true],
    ['ndr200-ib-4x', true],
    ['ndr-ib-4x', true],
    ['ndr-ib-8x', true],
    ['edr-ib-4x', false],
    ['omnipath-4x', false],
    ['roce-400g-8x', false],
  ])('%s in-network reduction (SHARP): %s', (id, sharp) => {
    expect(networkById(id)!.inNetworkReduction).toBe(sharp);
  });

  // Each fabric's leaf switch as its datasheet states the ports (QA: one 64-port leaf had stood in for every fabric).
  it.each([
    ['edr-ib-4x', 36, 100], // Mellanox SB7800 (Switch-IB 2): 36 QSFP28 EDR ports
    ['hdr-ib-4x', 40, 200], // NVIDIA Quantum QM8700/QM8790: 40 QSFP56 HDR ports
    ['hdr-ib-8x', 40, 200],
    ['ndr200-ib-4x', 64, 400], // NVIDIA Quantum-2 QM9700/QM9790: 32 OSFP cages × 2 = 64 NDR ports
    ['ndr-ib-4x', 64, 400],
    ['ndr-ib-8x', 64, 400],
    ['omnipath-4x', 48, 100], // Intel Omni-Path Edge Switch 100 Series, 48-port
    ['roce-400g-8x', 64, 400], // Meta Minipack2: Tomahawk 4, 25.6 Tb/s = 64 × 400 GbE
    ['nvl72', 64, 400], // beyond the rack, Quantum-2 QM9700
  ])('%s: its leaf switch has %i ports of %i Gb/s', (id, ports, gbps) => {
    const { leafSwitch } = networkById(id)!;
    expect(leafSwitch.ports).toBe(ports);
    expect(toGBps(leafSwitch.portBandwidth) * 8).toBe(gbps);
  });

  it.each([...NETWORK_IDS])('%s names its leaf switch in its citation', (id) => {
    expect(NETWORK_SOURCES[id].note).toMatch(/Leaf( beyond the rack)?: .*\d+ × /);
  });

  it('nvl72 is one NVLink domain of 72 GPUs; ordinary fabrics have none', () => {
    expect(networkById('nvl72')).toMatchObject({ kind: 'nvlink', nvlinkDomainGpus: 72 });
    for (const net of ALL.filter((n) => n.id !== 'nvl72')) expect(net.nvlinkDomainGpus).toBeUndefined();
  });

  it.each(['hdr', 'NDR-IB-8X', 'constructor'])('networkById returns undefined for the unknown id %j', (id) => {
    expect(networkById(id)).toBeUndefined();
  });
});
