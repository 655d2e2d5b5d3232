import { spawn, type ChildProcess } from 'node:child_process';

export interface LiveServer {
  readonly name: string;
  readonly base: string;
  /** The process started (for a runtime started through a launcher, the launcher). */
  readonly pid: number;
  stop(): void;
}

export interface ServerCommand {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: Record<string, string>;
  /** Finds the base URL in what the server prints once it listens. */
  readonly ready: RegExp;
  readonly startTimeoutMs: number;
}

/**
 * Starts a server in its own process group (so `stop` ends it and any children it spawned, e.g.
 * wrangler's workerd or deno task's deno) and resolves once it prints its address.
 */
export function startServer(cmd: ServerCommand): Promise<LiveServer> {
  const child: ChildProcess = spawn(cmd.command, cmd.args, {
    cwd: cmd.cwd,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1', FORCE_COLOR: '0', ...cmd.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const stop = () => {
    try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ }
  };
  let output = '';
  return new Promise<LiveServer>((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`${cmd.name} did not start in ${cmd.startTimeoutMs} ms:\n${output}`)); }, cmd.startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = cmd.ready.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ name: cmd.name, base: m[1]!, pid: child.pid!, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`${cmd.name} exited with ${code}:\n${output}`)); });
  });
}
