import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createEdge, type Edge, type EdgeEnv } from '../../../bot/http/app.ts';
import { type HttpHost, listen } from '../../../bot/http/server.ts';
import { OpError } from '../../../core/errors/index.ts';

/** A route group as a surface would write it in its own folder: it knows nothing of the edge. */
function sampleRoutes(): Hono<EdgeEnv> {
  const group = new Hono<EdgeEnv>();
  group.get('/hello', (c) => c.json({ hello: 'world', requestId: c.var.requestId }));
  group.get('/raw', () => new Response('raw', { headers: { 'content-type': 'text/plain' } }));
  group.get('/conflict', () => {
    throw new OpError('conflict');
  });
  group.get('/missing', () => {
    throw new OpError('not_found', 'errors.not_found.subscription', { id: 'sub_1' });
  });
  group.get('/teapot', () => {
    throw new HTTPException(401, { message: 'no' });
  });
  group.get('/challenge', () => {
    const res = new Response('{}', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
    throw new HTTPException(401, { res });
  });
  group.get('/boom', () => {
    throw new Error('database exploded at /srv/exhale/core/store.ts:12');
  });
  group.post('/echo', async (c) => c.text(await c.req.text()));
  group.get('/note', (c) => {
    c.var.log('a note from the group');
    return c.body(null, 204);
  });
  return group;
}

describe('the HTTP edge', () => {
  let edge: Edge;
  let host: HttpHost;
  let logged: Array<{ line: string; error: unknown }>;
  beforeEach(async () => {
    logged = [];
    edge = createEdge({
      maxBodyBytes: 1024,
      log: (line, error) => void logged.push({ line, error }),
    });
    edge.mount('/sample', sampleRoutes());
    host = await listen(edge, { port: 0 });
  });
  afterEach(async () => {
    await host.close();
  });

  it('answers /healthz', async () => {
    const response = await fetch(`${host.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('serves a route group mounted from outside, under its path', async () => {
    const response = await fetch(`${host.url}/sample/hello`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ hello: 'world' });
    expect((await fetch(`${host.url}/hello`)).status).toBe(404);
  });

  it('serves a group mounted after the server is listening', async () => {
    expect((await fetch(`${host.url}/late/hello`)).status).toBe(404);
    edge.mount('/late', sampleRoutes());
    expect((await fetch(`${host.url}/late/hello`)).status).toBe(200);
  });

  it('answers an unknown path 404 in the error shape, in the request language', async () => {
    const response = await fetch(`${host.url}/nowhere`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ error: 'not_found', message: "That wasn't found." });
    const es = await fetch(`${host.url}/nowhere`, { headers: { 'accept-language': 'es-ES' } });
    expect(await es.json()).toEqual({ error: 'not_found', message: 'No se encontró.' });
  });

  it("maps an OpError to its code's status and sentence, in the language the request prefers", async () => {
    const conflict = await fetch(`${host.url}/sample/conflict`);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({
      error: 'conflict',
      message: 'That conflicts with the current state.',
    });
    const missing = await fetch(`${host.url}/sample/missing`, {
      headers: { 'accept-language': 'fr;q=1, es;q=0.8, en;q=0.5' },
    });
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as { error: string; message: string };
    expect(body.error).toBe('not_found');
    expect(body.message).toBe(
      new OpError('not_found', 'errors.not_found.subscription', { id: 'sub_1' }).render('es'),
    );
    const english = await fetch(`${host.url}/sample/conflict`, {
      headers: { 'accept-language': 'de, en-GB;q=0.9, es;q=0.1' },
    });
    expect(((await english.json()) as { message: string }).message).toBe(
      'That conflicts with the current state.',
    );
    expect(logged).toEqual([]);
  });

  it("maps Hono's HTTPException by its status, and passes one with its own response through", async () => {
    const bare = await fetch(`${host.url}/sample/teapot`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({
      error: 'unauthorized',
      message: new OpError('unauthorized').render('en'),
    });
    const challenge = await fetch(`${host.url}/sample/challenge`);
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toBe('Bearer');
    expect(logged).toEqual([]);
  });

  it('answers anything else 500 internal without a stack, and logs it once with the request id', async () => {
    const response = await fetch(`${host.url}/sample/boom`, {
      headers: { 'x-request-id': 'req-boom-1' },
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: 'internal',
      message: new OpError('internal').render('en'),
    });
    expect(text).not.toContain('exploded');
    expect(text).not.toMatch(/\n\s+at /);
    expect(response.headers.get('x-request-id')).toBe('req-boom-1');
    expect(logged).toHaveLength(1);
    expect(logged[0]?.line).toBe('http req-boom-1 GET /sample/boom: 500 internal');
    expect(logged[0]?.error).toBeInstanceOf(Error);
  });

  it("lets a group log a line about its request, under the request's id", async () => {
    const response = await fetch(`${host.url}/sample/note`, { headers: { 'x-request-id': 'n-1' } });
    expect(response.status).toBe(204);
    expect(logged).toEqual([
      { line: 'http n-1 GET /sample/note: a note from the group', error: undefined },
    ]);
  });

  it('answers every response with a request id: the caller’s when sane, else a fresh one', async () => {
    const kept = await fetch(`${host.url}/sample/hello`, {
      headers: { 'x-request-id': 'abc-123_DEF.4:5=' },
    });
    expect(kept.headers.get('x-request-id')).toBe('abc-123_DEF.4:5=');
    expect(((await kept.json()) as { requestId: string }).requestId).toBe('abc-123_DEF.4:5=');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const insane of ['has space', 'x'.repeat(129), 'semi;colon', '']) {
      const response = await fetch(`${host.url}/sample/hello`, {
        headers: { 'x-request-id': insane },
      });
      expect(response.headers.get('x-request-id')).toMatch(uuid);
    }
    const ids = new Set<string | null>();
    for (const path of [
      '/healthz',
      '/nowhere',
      '/sample/raw',
      '/sample/conflict',
      '/sample/boom',
    ]) {
      const response = await fetch(`${host.url}${path}`);
      expect(response.headers.get('x-request-id')).toMatch(uuid);
      ids.add(response.headers.get('x-request-id'));
    }
    expect(ids.size).toBe(5);
  });

  it('refuses a declared body over the limit with 413 before any route reads it', async () => {
    const response = await fetch(`${host.url}/sample/echo`, {
      method: 'POST',
      body: 'x'.repeat(2000),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'too_large',
      message: new OpError('too_large').render('en'),
    });
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(logged).toEqual([]);
  });

  it('refuses a chunked body with 413 once it grows past the limit, and passes a smaller one intact', async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        controller.enqueue(new TextEncoder().encode('y'.repeat(256)));
      },
    });
    const refused = await fetch(`${host.url}/sample/echo`, {
      method: 'POST',
      body: endless,
      duplex: 'half',
    });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: string }).error).toBe('too_large');
    expect(sent).toBeGreaterThan(4);

    const chunks = ['a'.repeat(500), 'b'.repeat(500)];
    const small = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const passed = await fetch(`${host.url}/sample/echo`, {
      method: 'POST',
      body: small,
      duplex: 'half',
    });
    expect(passed.status).toBe(200);
    expect(await passed.text()).toBe(`${'a'.repeat(500)}${'b'.repeat(500)}`);
    expect(logged).toEqual([]);
  });

  it('answers a request with a malformed Host header 400 in the same shape', async () => {
    const { request } = await import('node:http');
    const url = new URL(host.url);
    const answer = await new Promise<{ status: number; body: string; id: string | undefined }>(
      (resolve, reject) => {
        const req = request(
          { host: url.hostname, port: url.port, path: '/healthz', headers: { host: 'bad host!' } },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body,
                id: res.headers['x-request-id'] as string | undefined,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_input' });
    expect(answer.id).toBeTruthy();
  });
});
