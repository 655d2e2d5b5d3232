import { readFileSync } from 'node:fs';

/** Resident set size of a process in bytes, from VmRSS in /proc/<pid>/status (Linux; reported in kB = 1024 bytes). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}

export const MiB = 1024 * 1024;
