import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A round-robin HTTP proxy in front of several `exhale` processes, as a load balancer would be:
 * each request goes to the next backend. A request that fails upstream is answered 502 and never
 * retried (it may have been written), so the bench counts it as a failure.
 */
export interface RoundRobin {
  url: string;
  /** How many requests each backend was given, in the order of `backends`. */
  served: number[];
  close(): Promise<void>;
}

export async function startRoundRobin(backends: readonly string[]): Promise<RoundRobin> {
  const served = backends.map(() => 0);
  let next = 0;
  const server: Server = createServer((req, res) => {
    const index = next++ % backends.length;
    served[index] = (served[index] ?? 0) + 1;
    const upstream = request(
      `${backends[index] ?? ''}${req.url ?? '/'}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP: always an AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
