import { Gbps } from '@trainplan/units';
import type { SwitchPorts } from './types.ts';

/**
 * The leaf switches the fabrics' NICs plug into, as their datasheets state the ports (networks.ts's citations name
 * each fabric's). A fat tree's leaf splits these ports between nodes and spines, so the radix bounds how many nodes
 * share a leaf: half of it at 1:1 (DGX A100 SuperPOD: 20 nodes a scalable unit on 40-port QM8790 leaves; DGX H100
 * SuperPOD: 32 on 64-port QM9700 leaves). Only the emulator's topology reads them; their Gbps() calls are marked pure
 * so that a bundle that leaves the emulator out, and `leafSwitch` out of networks.ts, drops them too.
 */

/** Mellanox Switch-IB 2 SB7800 (EDR): 36 QSFP28 ports of 100 Gb/s (SB7800 datasheet; Switch-IB ASICs have 36 ports). */
export const SWITCH_IB_2_SB7800: SwitchPorts = { ports: 36, portBandwidth: /* @__PURE__ */ Gbps(100) };

/** NVIDIA Quantum QM8700/QM8790 (HDR): 40 QSFP56 ports of 200 Gb/s (QM87xx 1U HDR switch systems user manual). */
export const QUANTUM_QM8700: SwitchPorts = { ports: 40, portBandwidth: /* @__PURE__ */ Gbps(200) };

/**
 * NVIDIA Quantum-2 QM9700/QM9790 (NDR): 32 twin-port OSFP cages, each 2 logical ports, so 64 ports of 400 Gb/s, or 128
 * of NDR200 (200 Gb/s) on splitter cables (QM97xx 1U NDR switch systems user manual, Interfaces).
 */
export const QUANTUM_2_QM9700: SwitchPorts = { ports: 64, portBandwidth: /* @__PURE__ */ Gbps(400) };

/**
 * Intel Omni-Path Edge Switch 100 Series, 48-port model: 48 ports of 100 Gb/s (Intel product brief: "48-port ASIC",
 * against InfiniBand's 36-port ASICs of its day).
 */
export const OMNI_PATH_EDGE_100_48: SwitchPorts = { ports: 48, portBandwidth: /* @__PURE__ */ Gbps(100) };

/**
 * Meta Minipack2, the top-of-rack switch of the Llama 3 RoCE cluster (Dubey et al. 2024, Sec. 3.3.1): one Broadcom
 * Tomahawk 4 of 25.6 Tb/s, so at most 64 ports of 400 GbE (25.6 Tb/s ÷ 400 Gb/s: derived from the ASIC's capacity,
 * not a port count the paper states).
 */
export const MINIPACK2: SwitchPorts = { ports: 64, portBandwidth: /* @__PURE__ */ Gbps(400) };
