import type { CliIo } from '../io.ts';

/** Redraws at most this many times per pass of the bar: a bounded amount of stderr whatever the search's size. */
const STEPS = 40;
const WIDTH = 30;

export interface ProgressBar {
  /** Fits the search's `onProgress(done, total)`: the share done of the current pass. */
  onProgress: (done: number, total: number) => void;
  /**
   * Starts a new pass of the bar under a note (e.g. each cluster size `nodes` searches: "96 nodes,
   * size 7"): the bar restarts from 0% and the note is shown after the label.
   */
  note: (text: string) => void;
  /** Clears the line. */
  done: () => void;
}

/**
 * A one-line progress bar on stderr for long work, drawn only when stderr is a terminal (never into a
 * pipe or a log); `done()` clears it. The share it shows is the caller's: the search reports work
 * (enumeration, then full estimates), not candidates, so the bar moves with the time spent.
 */
export function progressBar(io: CliIo, label: string): ProgressBar {
  if (io.stderrIsTTY !== true) return { onProgress: () => {}, note: () => {}, done: () => {} };
  let text = '';
  let drawn = -1;
  let longest = 0;
  const draw = (step: number) => {
    drawn = step;
    const filled = Math.round((step / STEPS) * WIDTH);
    const line = `${label}${text ? ` ${text}` : ''} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.round((step / STEPS) * 100)}%`;
    // Pad over a longer line drawn before (a note can shrink), so no stale characters remain.
    io.stderr(`\r${line.padEnd(longest)}`);
    longest = Math.max(longest, line.length);
  };
  return {
    onProgress(done, total) {
      const step = total > 0 ? Math.max(0, Math.min(STEPS, Math.floor((done / total) * STEPS))) : STEPS;
      if (step > drawn) draw(step);
    },
    note(next) {
      text = next;
      draw(0);
    },
    done() {
      if (drawn >= 0) io.stderr(`\r${' '.repeat(longest)}\r`);
    },
  };
}
