import { describe, expect, it } from 'vitest';
import { NCCL_TABLES } from '../src/index.ts';

describe('NCCL_TABLES: versioned, cited constants', () => {
  it('names the NCCL version its constants come from', () => {
    expect(NCCL_TABLES.version).toBe('v2.30.x');
    expect(NCCL_TABLES.snapshot).toMatch(/NVIDIA\/nccl/);
  });

  it('cites an NVIDIA/nccl source file for every constant', () => {
    for (const [name, entry] of Object.entries(NCCL_TABLES)) {
      if (typeof entry === 'string') continue;
      expect(entry.source, name).toMatch(/NVIDIA\/nccl src\/\S+\.(cc|h)/);
    }
  });

  it('keeps the reference\'s latency tables (µs): Ring LL/LL128/Simple base 6.6/14/8.4, NVLS NVLink 25', () => {
    expect(NCCL_TABLES.baseLatencyUs.value.ring).toEqual({ LL: 6.6, LL128: 14, Simple: 8.4 });
    expect(NCCL_TABLES.hwLatencyUs.value.nvlink.nvls.Simple).toBe(25);
    expect(NCCL_TABLES.hwLatencyUs.value.net.nvlsTree.Simple).toBe(20.9);
  });

  it('has 24 tree-correction factors per protocol (64 B · 2^i)', () => {
    for (const row of Object.values(NCCL_TABLES.treeCorrectionFactor.value)) expect(row).toHaveLength(24);
  });

  it('orders every speed ladder fastest first, as the search walks it', () => {
    for (const byGeneration of Object.values(NCCL_TABLES.speedLadderGBps.value)) {
      for (const ladder of Object.values(byGeneration)) {
        expect([...ladder].sort((a, b) => b - a)).toEqual(ladder);
      }
    }
  });
});
