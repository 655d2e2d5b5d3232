import type { CliIo } from '../io.ts';

/** Redraws at most this many times: a bounded amount of stderr whatever the search's size. */
const STEPS = 40;
const WIDTH = 30;

/**
 * A one-line progress bar on stderr for long work, drawn only when stderr is a terminal (never into a
 * pipe or a log); `done()` clears it. The callback fits the search's `onProgress(done, total)`.
 */
export function progressBar(io: CliIo, label: string): { onProgress: (done: number, total: number) => void; done: () => void } {
  if (io.stderrIsTTY !== true) return { onProgress: () => {}, done: () => {} };
  let drawn = -1;
  return {
    onProgress(done, total) {
      const step = total > 0 ? Math.min(STEPS, Math.floor((done / total) * STEPS)) : STEPS;
      if (step === drawn) return;
      drawn = step;
      const filled = Math.round((step / STEPS) * WIDTH);
      io.stderr(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.round((step / STEPS) * 100)}%`);
    },
    done() {
      if (drawn >= 0) io.stderr(`\r${' '.repeat(label.length + WIDTH + 8)}\r`);
    },
  };
}
