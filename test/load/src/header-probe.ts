import { connect } from 'node:net';

export interface ProbeOutcome {
  /** Milliseconds from connecting until the server closed the socket. */
  closedAfterMs: number;
  /** What the server wrote before closing (its status line, if any). */
  answer: string;
}

/**
 * One slow-loris client that never finishes its headers (a byte every `byteIntervalMs`, endless
 * header lines): resolves when the server closes it, or with closedAfterMs = Infinity at `giveUpMs`.
 */
export function probeHeadersTimeout(base: string, byteIntervalMs: number, giveUpMs: number): Promise<ProbeOutcome> {
  const url = new URL(base);
  const text = `GET /healthz HTTP/1.1\r\nHost: ${url.host}\r\n`;
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    let answer = '';
    let sent = 0;
    const drip = setInterval(() => {
      // After the request line, header lines forever: "X: y\r\n", one byte at a time.
      const next = sent < text.length ? text[sent]! : 'X: y\r\n'[(sent - text.length) % 6]!;
      socket.write(next);
      sent += 1;
    }, byteIntervalMs);
    const giveUp = setTimeout(() => finish(Infinity), giveUpMs);
    const finish = (closedAfterMs: number) => {
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedAfterMs, answer: answer.split('\r\n')[0] ?? '' });
    };
    socket.on('data', (chunk: Buffer) => { answer += chunk.toString('latin1'); });
    socket.on('error', () => { /* a reset is a close */ });
    socket.on('close', () => finish(performance.now() - started));
  });
}
