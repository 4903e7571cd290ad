import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The smallest PNG (1×1), as a client would serve its logo. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A local HTTPS host for Client ID Metadata Documents: a throw-away CA (openssl) and a
 * certificate for `localhost` it signed. A child process trusts it through NODE_EXTRA_CA_CERTS
 * (`caFile`), and fetches from it only with `localhost` on the trusted-hosts setting.
 */
export interface TlsHost {
  url: string;
  caFile: string;
  /**
   * Serves `body` (or never answers, for `'hang'`) at `path`, as JSON unless `headers` say
   * otherwise; `status` other than 200 (a redirect) with its headers.
   */
  serve(
    path: string,
    body: string | Buffer | 'hang',
    headers?: Record<string, string>,
    status?: number,
  ): void;
  requests: string[];
  close(): Promise<void>;
}

export async function startTlsHost(): Promise<TlsHost> {
  const dir = mkdtempSync(path.join(tmpdir(), 'exhale-tls-'));
  const f = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=Exhale test CA',
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
  );
  ssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    f('host.key'),
    '-out',
    f('host.csr'),
  );
  writeFileSync(f('ext.cnf'), 'subjectAltName=DNS:localhost\n');
  ssl(
    'x509',
    '-req',
    '-in',
    f('host.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    f('ext.cnf'),
    '-out',
    f('host.pem'),
  );
  const routes = new Map<
    string,
    { body: string | Buffer | 'hang'; headers: Record<string, string>; status: number }
  >();
  const requests: string[] = [];
  const server: Server = createServer(
    { key: readFileSync(f('host.key')), cert: readFileSync(f('host.pem')) },
    (req, res) => {
      requests.push(req.url ?? '');
      const route = routes.get(req.url ?? '');
      if (!route) {
        res.statusCode = 404;
        res.end();
        return;
      }
      if (route.body === 'hang') return;
      res.writeHead(route.status, { 'content-type': 'application/json', ...route.headers });
      res.end(route.body);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  return {
    url: `https://localhost:${port}`,
    caFile: f('ca.pem'),
    serve: (p, body, headers = {}, status = 200) => void routes.set(p, { body, headers, status }),
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
