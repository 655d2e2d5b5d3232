/**
 * Everything the CLI needs from its runtime, passed in so that `main` stays pure of process
 * globals: tests hand it strings, bin/trainplan.mjs hands it the real streams and file system.
 */
export interface CliIo {
  /** Writes text as given (the CLI ends its own lines). */
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** All of stdin, as UTF-8 text. */
  readStdin: () => Promise<string>;
  /** A file's UTF-8 text; rejects with a Node-style error (`code: 'ENOENT'`, …) when it cannot. */
  readFile: (path: string) => Promise<string>;
  /** stderr is a terminal: long commands then draw a progress bar there (absent: not a terminal). */
  stderrIsTTY?: boolean;
}
