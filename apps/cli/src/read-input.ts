import { describeJsonError } from '@trainplan/protocol';
import { errorMessage } from './errors.ts';
import type { CliIo } from './io.ts';

export type InputResult = { ok: true; value: unknown } | { ok: false; message: string };

const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

function readFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' ? READ_ERRORS[code] : undefined) ?? errorMessage(error);
}

/** `--input FILE|-` → the parsed JSON value, or a one-line message starting with `--input:`. */
export async function readJsonInput(source: string, io: CliIo): Promise<InputResult> {
  const from = source === '-' ? 'stdin' : source;
  let text: string;
  try {
    text = source === '-' ? await io.readStdin() : await io.readFile(source);
  } catch (error) {
    return { ok: false, message: `--input: cannot read ${from}: ${readFailure(error)}` };
  }
  // Editors on Windows like to start UTF-8 files with a byte-order mark; JSON.parse does not.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (text.trim() === '') return { ok: false, message: `--input: ${from} is empty (expected a scenario as JSON)` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: `--input: not valid JSON (${describeJsonError(text, errorMessage(error))})` };
  }
}
