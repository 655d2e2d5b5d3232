import type { CliIo } from '../../src/io.ts';

export interface FakeIo extends CliIo {
  /** Everything written to stdout / stderr so far. */
  readonly out: () => string;
  readonly err: () => string;
}

/** A Node-style file-system error, as fs/promises rejects with. */
function fsError(code: string, path: string): Error {
  return Object.assign(new Error(`${code}: open '${path}'`), { code });
}

/** An in-memory runtime for `main`: stdin and files are strings; files not listed do not exist. */
export function fakeIo(options: { stdin?: string; files?: Record<string, string> } = {}): FakeIo {
  let out = '';
  let err = '';
  const files = options.files ?? {};
  return {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
    readStdin: async () => options.stdin ?? '',
    readFile: async (path) => {
      const text = files[path];
      if (text === undefined) throw fsError('ENOENT', path);
      return text;
    },
    out: () => out,
    err: () => err,
  };
}
