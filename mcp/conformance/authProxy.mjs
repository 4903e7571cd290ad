/* global process, console, URL */
// A pass-through HTTP proxy that adds "Authorization: Bearer $EXHALE_TOKEN" to every request.
// The conformance CLI cannot send headers; /mcp needs a token. Everything else (Host and Origin
// included, so DNS-rebinding checks still reach the server) passes through untouched, streamed.
// Usage: EXHALE_TOKEN=exh_… node authProxy.mjs http://127.0.0.1:8080  -> prints http://127.0.0.1:<port>
import { createServer, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const target = new URL(process.argv[2] ?? '');
const token = process.env.EXHALE_TOKEN ?? '';
if (!token) {
  console.error('authProxy: EXHALE_TOKEN is not set');
  process.exit(2);
}
const send = target.protocol === 'https:' ? httpsRequest : httpRequest;

const server = createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const upstream = send(
    {
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`authProxy: ${error.message}`);
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
