import { Buffer } from 'node:buffer';
import { Agent, request } from 'node:http';
import process from 'node:process';
import { URL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/**
 * The benchmarks' HTTP load generator: `calls` POSTs of one fixed request with `inFlight` of them
 * in flight at once, over node:http with keep-alive (the lightest stock client), each answer read
 * whole and parsed as JSON; a status other than 200 fails the round. It runs on the caller's event
 * loop (`inLoopClient`: its CPU is counted against a server in the same thread) or in a worker
 * thread of the same process (`LoadWorker`: its own event loop, on another core when there is
 * one, as wrk or autocannon run beside the server they measure). Plain JavaScript, so a worker
 * runs it without tsx's loader (a worker inherits neither the loader nor `--import`).
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

/** The same client in a worker thread: `round` runs one round there and answers its calls per second. */
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
  const run = inLoopClient(workerData);
  port.on('message', (round) => {
    run(round).then(
      (perSecond) => port.postMessage({ ok: true, perSecond }),
      (error) => port.postMessage({ ok: false, error: String(error) }),
    );
  });
}
