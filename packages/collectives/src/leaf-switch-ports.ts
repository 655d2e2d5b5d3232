import type { SwitchPorts } from '@trainplan/hardware';
import { Gbps, type BytesPerSecond } from '@trainplan/units';

/** A rate as the Gb/s a datasheet states it in. */
const gbps = (rate: BytesPerSecond): number => rate / Gbps(1);

/**
 * The leaf switch's ports counted at the NICs' line rate: a port k times a NIC's is split into k NIC links by
 * splitter cable (a Quantum-2 QM9700's 64 NDR 400 Gb/s ports are 128 NDR200 links: QM97xx user manual), so the
 * leaf holds k times as many NICs. Whole links only: a port cannot be split into a fraction of one. Refused: a port
 * slower than the NIC (it would run the NIC below its line rate, which the fat tree does not model), and fewer than
 * 2 ports (a leaf needs one down to a node and one up to the spine).
 */
export function leafPortsAtNicRate(leaf: SwitchPorts, nicBandwidth: BytesPerSecond): number {
  // + 1e-9: a ratio of two rates that floating point lands a hair under a whole number still counts that many links.
  const linksPerPort = Math.floor(leaf.portBandwidth / nicBandwidth + 1e-9);
  if (linksPerPort < 1) {
    throw new RangeError(`the leaf switch's ${gbps(leaf.portBandwidth)} Gb/s ports are slower than the ${gbps(nicBandwidth)} Gb/s NICs`);
  }
  const ports = leaf.ports * linksPerPort;
  if (!Number.isInteger(ports) || ports < 2) throw new RangeError(`a leaf switch needs at least 2 ports (one down, one up), got ${ports}`);
  return ports;
}
