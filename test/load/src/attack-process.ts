import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startAttack, type Attack, type AttackOptions, type AttackReport } from './faults.ts';

/**
 * Runs the attack in a process of its own, so the attackers' socket writes never delay the load
 * generator's event loop: the latencies measured are the server's, not the client's. The child
 * attacks until its stdin closes, then prints its report as one JSON line.
 */
export function startAttackProcess(options: AttackOptions): Promise<Attack> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = () => {
      if (!output.includes('attacking\n')) return;
      child.stdout!.off('data', onData);
      resolve({
        async stop(): Promise<AttackReport> {
          child.stdin!.end();
          await exited;
          const line = output.split('\n').find((l) => l.startsWith('{'));
          if (line === undefined) throw new Error(`the attack process printed no report:\n${output}`);
          return JSON.parse(line) as AttackReport;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the attack process exited with ${code} before attacking:\n${output}`)));
  });
}

// Run as a script: attack until stdin closes.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const attack = startAttack(JSON.parse(process.argv[2]!) as AttackOptions);
  process.stdout.write('attacking\n');
  process.stdin.on('end', () => {
    void attack.stop().then((report) => { process.stdout.write(`${JSON.stringify(report)}\n`); process.exit(0); });
  });
  process.stdin.resume();
}
