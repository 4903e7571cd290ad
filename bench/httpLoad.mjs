import { Buffer } from 'node:buffer';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import process from 'node:process';
import { URL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * The benchmarks' HTTP load generators: `calls` POSTs of one fixed request with `inFlight` of them
 * in flight at once, each over its own keep-alive connection (one request at a time on it, no
 * pipelining), each answer read whole and its JSON parsed; a status other than 200 fails the round.
 *
 * - `inLoopClient`: node:http with a keep-alive agent, on the caller's event loop (so its CPU is
 *   counted against a server in the same thread);
 * - `LoadWorker`: a lean client in a worker thread of the same process (its own event loop, on
 *   another core when there is one), as wrk or autocannon load a server: the request's bytes are
 *   made once and written as they are, and an answer is read by its status line and
 *   Content-Length (the API always sends one), so the figure is the server's, not the client's
 *   (node:http's client costs about what the server does per call).
 *
 * Plain JavaScript, so a worker runs it without tsx's loader (a worker inherits neither the loader
 * nor `--import`).
 */

/** Calls per second of `call`, `calls` of them with `inFlight` in flight. */
export async function throughput(call, inFlight, calls) {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < calls) {
        next += 1;
        await call();
      }
    }),
  );
  return calls / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** A client of `load` on this thread's event loop: `(round) => calls per second`. */
export function inLoopClient(load) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(load.url);
  const one = () =>
    new Promise((resolve, reject) => {
      const req = request(target, { method: 'POST', agent, headers: load.headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`the API answered ${res.statusCode}`));
          else resolve(void JSON.parse(Buffer.concat(chunks).toString('utf8')));
        });
      });
      req.on('error', reject);
      req.end(load.body);
    });
  return ({ inFlight, calls }) => throughput(one, inFlight, calls);
}

/**
 * One keep-alive connection of the lean client: `send()` writes the request, `done` is called with
 * each whole answer (status, body), `failed` with an error.
 */
function leanConnection(target, bytes, done, failed) {
  const socket = connect({ host: target.hostname, port: Number(target.port), noDelay: true });
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = pending.toString('latin1', 0, end);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      if (!length) return failed(new Error('an answer without Content-Length'));
      const total = end + 4 + Number(length[1]);
      if (pending.length < total) return;
      const body = pending.toString('utf8', end + 4, total);
      pending = pending.subarray(total);
      done(Number(head.slice(9, 12)), body);
    }
  });
  socket.on('error', failed);
  return { send: () => socket.write(bytes), close: () => socket.destroy() };
}

/** The lean client: `(round) => calls per second`, over `inFlight` keep-alive connections. */
export function leanClient(load) {
  const target = new URL(load.url);
  const head = [
    `POST ${target.pathname}${target.search} HTTP/1.1`,
    `host: ${target.host}`,
    ...Object.entries(load.headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
  const bytes = Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(load.body, 'utf8')]);
  return ({ inFlight, calls }) =>
    new Promise((resolve, reject) => {
      let sent = 0;
      let answered = 0;
      const start = process.hrtime.bigint();
      const connections = [];
      let settled = false;
      const finish = (error) => {
        if (settled) return;
        settled = true;
        for (const connection of connections) connection.close();
        if (error) reject(error);
        else resolve(calls / (Number(process.hrtime.bigint() - start) / 1e9));
      };
      const next = (connection) => {
        if (sent >= calls) return;
        sent += 1;
        connection.send();
      };
      for (let i = 0; i < inFlight; i += 1) {
        const connection = leanConnection(
          target,
          bytes,
          (status, body) => {
            if (status !== 200) return finish(new Error(`the API answered ${status}`));
            JSON.parse(body);
            answered += 1;
            if (answered === calls) finish(null);
            else next(connection);
          },
          finish,
        );
        connections.push(connection);
      }
      for (const connection of connections) next(connection);
    });
}

/** The lean client in a worker thread: `round` runs one round there and answers its calls per second. */
export class LoadWorker {
  #worker;
  #waiting = null;
  #failed = null;

  constructor(load) {
    this.#worker = new Worker(new URL(import.meta.url), { workerData: load });
    this.#worker.on('message', (message) => this.#settle(message));
    this.#worker.on('error', (error) => this.#settle({ ok: false, error: String(error) }));
  }

  /** A failure with no round waiting (the worker did not start) fails the next round. */
  #settle(message) {
    if (this.#waiting) this.#waiting(message);
    else if (!message.ok) this.#failed = message;
  }

  round(round) {
    return new Promise((resolve, reject) => {
      if (this.#failed) return reject(new Error(this.#failed.error));
      this.#waiting = (message) => {
        this.#waiting = null;
        if (message.ok) resolve(message.perSecond);
        else reject(new Error(message.error));
      };
      this.#worker.postMessage(round);
    });
  }

  async close() {
    await this.#worker.terminate();
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const run = leanClient(workerData);
  port.on('message', (round) => {
    run(round).then(
      (perSecond) => port.postMessage({ ok: true, perSecond }),
      (error) => port.postMessage({ ok: false, error: String(error) }),
    );
  });
}
