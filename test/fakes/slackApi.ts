import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Slack, both sides of it, over loopback:
 *
 * - the Web API (`POST /api/<method>`, form-encoded or JSON): `auth.test`, `chat.postMessage`,
 *   `chat.update`, `chat.postEphemeral`, `chat.startStream/appendStream/stopStream` (with `chunks`
 *   or `markdown_text`), `assistant.threads.*`, `views.publish`, `conversations.replies`,
 *   `users.info`, `files.info`, `apps.connections.open`, file downloads (`GET /files/<id>`) and
 *   the bot's uploads (`files.getUploadURLExternal`, the raw POST, `files.completeUploadExternal`).
 *   Response URLs (`responseUrl`, `POST /response/<key>`, recorded as `response_url` calls): a new
 *   ephemeral message, or `replace_original`/`delete_original` of the ephemeral message pressed.
 *   `hold` keeps a method's calls waiting (a call whose caller is gone when released is dropped).
 *   Every call is recorded; `rateLimit` answers a method 429 with Retry-After once; `refuse` makes a
 *   method answer `ok: false`.
 * - Slack's requests to an app: `signed` builds a signed request as Slack sends it (events as JSON,
 *   interactivity and slash commands form-encoded).
 */

export interface SlackCall {
  method: string;
  params: Record<string, unknown>;
  auth: string | undefined;
}

export interface SlackUser {
  id: string;
  team: string;
  name: string;
  locale: string;
}

export interface FakeMessage {
  channel: string;
  ts: string;
  text: string;
  blocks?: Block[] | undefined;
  thread_ts?: string | undefined;
  streaming?: boolean;
  /** Set on an ephemeral message: the one person who sees it. */
  user?: string | undefined;
}

/** A Block Kit block, as far as the tests read them. */
export interface Block {
  type: string;
  block_id?: string;
  text?: { type: string; text: string };
  elements?: Array<{
    type: string;
    action_id?: string;
    text?: { type: string; text: string } | string;
    value?: string;
    url?: string;
  }>;
  fields?: Array<{ type: string; text: string }>;
}

export const SIGNING_SECRET = 'test-signing-secret';
export const TEAM = 'T0001';
export const BOT_USER = 'UBOT';

const JSON_FIELDS = ['blocks', 'chunks', 'metadata', 'prompts', 'attachments', 'view'];

function textOf(p: Record<string, unknown>): string {
  if (typeof p.markdown_text === 'string') return p.markdown_text;
  if (Array.isArray(p.chunks))
    return (p.chunks as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
  return '';
}

export class FakeSlack {
  readonly calls: SlackCall[] = [];
  readonly messages = new Map<string, FakeMessage>();
  readonly users = new Map<string, SlackUser>();
  readonly files = new Map<string, { name: string; mimetype: string; bytes: Uint8Array }>();
  /** The last App Home view published per user. */
  readonly homes = new Map<string, { blocks: Block[] }>();
  /** Set to answer every call `invalid_auth` (a token Slack refuses). */
  invalidAuth = false;
  /** The Socket Mode URL `apps.connections.open` hands out. */
  socketUrl: string | null = null;
  private readonly limited = new Map<string, number>();
  private readonly refused = new Map<string, string>();
  private readonly held = new Map<string, Promise<void>>();
  private readonly waiters = new Set<() => void>();
  private server: http.Server | null = null;
  private seq = 1_700_000_000;
  url = '';
  /** Response URLs handed out: the conversation and person they answer, and the message pressed. */
  private readonly responseTargets = new Map<
    string,
    { channel: string; user: string; original: string | undefined }
  >();
  /** Held calls whose caller went away before they were released (not applied). */
  readonly abandoned: SlackCall[] = [];
  /**
   * Held calls whose connection closed while they were held, as soon as the close is seen (a test
   * waits for it before releasing, so a killed caller's call is not answered as if it were there).
   */
  readonly goneWhileHeld: string[] = [];
  /** Messages deleted through a response URL (`delete_original`), by ts. */
  readonly deleted: FakeMessage[] = [];

  /**
   * A response URL as Slack hands one out with a slash command (`original` unset) or a press on
   * an ephemeral message (`original` its ts). Posts to it are recorded as calls of `response_url`:
   * a new ephemeral message for `user`, or `replace_original`/`delete_original` of the message
   * pressed (refused with 404 when there is none, as a command has no original).
   */
  responseUrl(channel: string, user: string, original?: string): string {
    const key = `r${this.responseTargets.size + 1}`;
    this.responseTargets.set(key, { channel, user, original });
    return `${this.url.replace(/\/api\/$/, '')}/response/${key}`;
  }

  /** A signed press of a button on `message`, with a response URL when it is ephemeral. */
  pressOn(user: SlackUser, message: FakeMessage, actionId: string, value: string): SignedRequest {
    const url = message.user ? this.responseUrl(message.channel, user.id, message.ts) : undefined;
    return slackRequests.press(user, message, actionId, value, url);
  }

  private respond(key: string, body: Record<string, unknown>): number {
    const target = this.responseTargets.get(key);
    this.calls.push({ method: 'response_url', params: { ...body, key }, auth: undefined });
    if (!target) return 404;
    const original = target.original ? this.messages.get(target.original) : undefined;
    if (body.delete_original === true) {
      if (!original) return 404;
      this.messages.delete(original.ts);
      this.deleted.push(original);
      return 200;
    }
    if (body.replace_original === true) {
      if (!original) return 404;
      original.text = typeof body.text === 'string' ? body.text : original.text;
      original.blocks = Array.isArray(body.blocks) ? (body.blocks as Block[]) : undefined;
      return 200;
    }
    this.post({ ...body, channel: target.channel }, { user: target.user });
    return 200;
  }

  user(id: string, name: string, locale = 'en-US'): SlackUser {
    const u = { id, team: TEAM, name, locale };
    this.users.set(id, u);
    return u;
  }

  /** The next call of `method` answers 429 with `Retry-After: seconds`. */
  rateLimit(method: string, seconds: number): void {
    this.limited.set(method, seconds);
  }

  /** Calls of `method` answer `{ ok: false, error }` until `allow`. */
  refuse(method: string, error: string): void {
    this.refused.set(method, error);
  }

  /** Calls of `method` wait until the returned release is called (work after an ack). */
  hold(method: string): () => void {
    let release = (): void => undefined;
    this.held.set(method, new Promise<void>((resolve) => (release = resolve)));
    return () => {
      this.held.delete(method);
      release();
    };
  }

  allow(method: string): void {
    this.refused.delete(method);
  }

  callsOf(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Messages in a channel (and its threads), oldest first; ephemeral ones too. */
  messagesIn(channel: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.channel === channel);
  }

  /** Resolves once `check` holds (re-checked after every call), for work done after an ack. */
  until<T>(check: () => T | undefined | null | false, what = 'a condition'): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(test);
        reject(new Error(`fake Slack: timed out waiting for ${what}`));
      }, 20_000);
      const test = (): void => {
        const value = check();
        if (value) {
          clearTimeout(timer);
          this.waiters.delete(test);
          resolve(value);
        }
      };
      this.waiters.add(test);
      test();
    });
  }

  private post(p: Record<string, unknown>, extra: Partial<FakeMessage> = {}): FakeMessage {
    const ts = `${this.seq++}.000100`;
    const m: FakeMessage = {
      channel: String(p.channel),
      ts,
      text: typeof p.text === 'string' ? p.text : '',
      blocks: Array.isArray(p.blocks) ? (p.blocks as Block[]) : undefined,
      thread_ts: typeof p.thread_ts === 'string' ? p.thread_ts : undefined,
      ...extra,
    };
    this.messages.set(ts, m);
    return m;
  }

  private answer(method: string, p: Record<string, unknown>): Record<string, unknown> {
    const found = (ts: unknown): FakeMessage | undefined =>
      typeof ts === 'string' ? this.messages.get(ts) : undefined;
    switch (method) {
      case 'auth.test':
        return {
          url: 'https://fake.slack/',
          team: 'Fake',
          user: 'exhale',
          team_id: TEAM,
          user_id: BOT_USER,
          bot_id: 'BBOT',
        };
      case 'chat.postMessage': {
        if (typeof p.channel !== 'string') return { ok: false, error: 'channel_not_found' };
        // Posting to a user id opens (or reuses) the DM with them.
        const channel = p.channel.startsWith('U') ? `D${p.channel.slice(1)}` : p.channel;
        const m = this.post({ ...p, channel });
        return { channel, ts: m.ts, message: m };
      }
      case 'chat.postEphemeral': {
        const m = this.post(p, { user: String(p.user) });
        return { message_ts: m.ts };
      }
      case 'chat.update': {
        const m = found(p.ts);
        if (!m) return { ok: false, error: 'message_not_found' };
        m.text = typeof p.text === 'string' ? p.text : m.text;
        if (Array.isArray(p.blocks)) m.blocks = p.blocks as Block[];
        return { channel: m.channel, ts: m.ts, text: m.text };
      }
      case 'chat.startStream': {
        const m = this.post({ ...p, text: textOf(p) }, { streaming: true });
        return { channel: m.channel, ts: m.ts };
      }
      case 'chat.appendStream':
      case 'chat.stopStream': {
        const m = found(p.ts);
        if (!m) return { ok: false, error: 'message_not_found' };
        if (!m.streaming) return { ok: false, error: 'message_not_in_streaming_state' };
        m.text += textOf(p);
        if (method === 'chat.stopStream') {
          m.streaming = false;
          if (Array.isArray(p.blocks)) m.blocks = p.blocks as Block[];
        }
        return { channel: m.channel, ts: m.ts };
      }
      case 'assistant.threads.setStatus':
      case 'assistant.threads.setSuggestedPrompts':
      case 'assistant.threads.setTitle':
        return {};
      case 'views.publish': {
        const view = p.view as { blocks?: Block[] } | undefined;
        this.homes.set(String(p.user_id), { blocks: view?.blocks ?? [] });
        return { view: { id: 'V1', ...view } };
      }
      case 'conversations.replies':
        return {
          messages: [...this.messages.values()].filter(
            (m) => m.channel === p.channel && (m.ts === p.ts || m.thread_ts === p.ts),
          ),
          has_more: false,
        };
      case 'users.info': {
        const u = this.users.get(String(p.user));
        if (!u) return { ok: false, error: 'user_not_found' };
        return {
          user: {
            id: u.id,
            team_id: u.team,
            name: u.name.toLowerCase(),
            real_name: u.name,
            profile: { real_name: u.name, display_name: u.name },
            ...(p.include_locale ? { locale: u.locale } : {}),
          },
        };
      }
      case 'files.info': {
        const id = String(p.file);
        const f = this.files.get(id);
        if (!f) return { ok: false, error: 'file_not_found' };
        return {
          file: {
            id,
            name: f.name,
            mimetype: f.mimetype,
            size: f.bytes.byteLength,
            url_private_download: `${this.url.replace(/\/api\/$/, '')}/files/${id}`,
          },
        };
      }
      case 'files.getUploadURLExternal': {
        const id = `F${String(this.pendingUploads.size + this.uploaded.length + 1).padStart(6, '0')}`;
        this.pendingUploads.set(id, {
          name: String(p.filename),
          length: Number(p.length),
          bytes: null,
        });
        return { upload_url: `${this.url.replace(/\/api\/$/, '')}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal': {
        const files = (typeof p.files === 'string' ? JSON.parse(p.files) : p.files) as Array<{
          id: string;
          title?: string;
        }>;
        const done = [];
        for (const f of files) {
          const pending = this.pendingUploads.get(f.id);
          if (!pending || pending.bytes === null) return { ok: false, error: 'file_not_found' };
          this.pendingUploads.delete(f.id);
          this.uploaded.push({
            id: f.id,
            name: pending.name,
            title: f.title ?? pending.name,
            channel: String(p.channel_id ?? ''),
            threadTs: typeof p.thread_ts === 'string' ? p.thread_ts : undefined,
            bytes: pending.bytes,
          });
          done.push({ id: f.id, name: pending.name });
        }
        return { files: done };
      }
      case 'apps.connections.open':
        return this.socketUrl ? { url: this.socketUrl } : { ok: false, error: 'no_socket' };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  /** Files the bot uploaded (files.uploadV2: the upload URL, the bytes, then complete), in order. */
  readonly uploaded: Array<{
    id: string;
    name: string;
    title: string;
    channel: string;
    threadTs: string | undefined;
    bytes: Uint8Array;
  }> = [];
  private readonly pendingUploads = new Map<
    string,
    { name: string; length: number; bytes: Uint8Array | null }
  >();

  /** A file in Slack's storage, as shared in a DM; returns its id. */
  addFile(id: string, name: string, mimetype: string, bytes: Uint8Array): string {
    this.files.set(id, { name, mimetype, bytes });
    return id;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/`;
    return this;
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk as Uint8Array));
    const raw = Buffer.concat(chunks);
    const body = raw.toString();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'POST' && path.startsWith('/upload/')) {
      // The second step of files.uploadV2: the bytes, posted raw to the URL handed out.
      const pending = this.pendingUploads.get(path.slice('/upload/'.length));
      if (!pending) {
        res.writeHead(404).end();
        return;
      }
      pending.bytes = uploadedBytes(raw, req.headers['content-type'] ?? '');
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK - ' + raw.byteLength);
      return;
    }
    if (req.method === 'POST' && path.startsWith('/response/')) {
      const status = this.respond(
        path.slice('/response/'.length),
        JSON.parse(body || '{}') as Record<string, unknown>,
      );
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ok: status === 200 }));
      for (const check of [...this.waiters]) check();
      return;
    }
    if (req.method === 'GET' && path.startsWith('/files/')) {
      const f = this.files.get(path.slice('/files/'.length));
      this.calls.push({
        method: 'file.download',
        params: { path },
        auth: req.headers.authorization,
      });
      if (!f || req.headers.authorization !== 'Bearer xoxb-test') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': f.mimetype }).end(Buffer.from(f.bytes));
      return;
    }
    const method = path.replace(/^\/api\//, '');
    const type = req.headers['content-type'] ?? '';
    const params = (
      type.includes('json')
        ? JSON.parse(body || '{}')
        : Object.fromEntries(new URLSearchParams(body))
    ) as Record<string, unknown>;
    for (const key of JSON_FIELDS) {
      const value = params[key];
      if (typeof value === 'string') {
        try {
          params[key] = JSON.parse(value) as unknown;
        } catch {
          // left as the string it was sent as
        }
      }
    }
    this.calls.push({ method, params, auth: req.headers.authorization });
    const held = this.held.get(method);
    if (held) {
      for (const check of [...this.waiters]) check();
      // A caller that went away while held (its process was killed) never got through: nothing
      // it asked for is applied, as Slack would not have it.
      let gone = false;
      res.once('close', () => {
        gone = !res.writableEnded;
        if (!gone) return;
        this.goneWhileHeld.push(method);
        for (const check of [...this.waiters]) check();
      });
      await held;
      if (gone) {
        this.abandoned.push({ method, params, auth: req.headers.authorization });
        for (const check of [...this.waiters]) check();
        return;
      }
    }
    let status = 200;
    let answer: Record<string, unknown>;
    const retryAfter = this.limited.get(method);
    const refusal = this.refused.get(method);
    if (retryAfter !== undefined) {
      this.limited.delete(method);
      status = 429;
      res.setHeader('retry-after', String(retryAfter));
      answer = { ok: false, error: 'ratelimited' };
    } else if (this.invalidAuth) answer = { ok: false, error: 'invalid_auth' };
    else if (refusal) answer = { ok: false, error: refusal };
    else answer = { ok: true, ...this.answer(method, params) };
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    for (const check of [...this.waiters]) check();
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Slack's signature headers for a body, as Slack signs every request to an app. */
export function signature(
  body: string,
  ts = Math.floor(Date.now() / 1000),
  secret = SIGNING_SECRET,
): Record<string, string> {
  const sig = `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
  return { 'x-slack-signature': sig, 'x-slack-request-timestamp': String(ts) };
}

export interface SignedRequest {
  headers: Record<string, string>;
  body: string;
}

let eventSeq = 0;

/** Builders for what Slack sends an app; each returns a signed request. */
export const slackRequests = {
  event(event: Record<string, unknown>): SignedRequest {
    eventSeq += 1;
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: TEAM,
      api_app_id: 'A0001',
      event_id: `Ev${eventSeq}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: TEAM, user_id: BOT_USER, is_bot: true }],
      event,
    });
    return { headers: { 'content-type': 'application/json', ...signature(body) }, body };
  },
  /** A message in the DM with the app (`D<user>`). */
  dm(user: SlackUser, text: string, extra: Record<string, unknown> = {}): SignedRequest {
    return slackRequests.event({
      type: 'message',
      channel_type: 'im',
      channel: `D${user.id.slice(1)}`,
      user: user.id,
      team: user.team,
      text,
      ts: `${Date.now() / 1000}`,
      ...extra,
    });
  },
  mention(user: SlackUser, channel: string, text: string): SignedRequest {
    return slackRequests.event({
      type: 'app_mention',
      channel,
      user: user.id,
      team: user.team,
      text: `<@${BOT_USER}> ${text}`,
      ts: `${Date.now() / 1000}`,
    });
  },
  form(fields: Record<string, string>): SignedRequest {
    const body = new URLSearchParams(fields).toString();
    return {
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...signature(body) },
      body,
    };
  },
  command(
    user: SlackUser,
    text: string,
    channel = `D${user.id.slice(1)}`,
    responseUrl = 'https://hooks.slack.invalid/commands/1',
  ): SignedRequest {
    return slackRequests.form({
      command: '/exhale',
      text,
      user_id: user.id,
      user_name: user.name.toLowerCase(),
      team_id: user.team,
      channel_id: channel,
      channel_name: channel.startsWith('D') ? 'directmessage' : 'general',
      trigger_id: `trig${++eventSeq}`,
      response_url: responseUrl,
      api_app_id: 'A0001',
    });
  },
  /**
   * A press of the button `actionId` on a message the app posted. On an ephemeral message (one
   * with `user`) Slack sends no `message`, only the container's ts, and a response URL.
   */
  press(
    user: SlackUser,
    message: FakeMessage,
    actionId: string,
    value: string,
    responseUrl = 'https://hooks.slack.invalid/actions/1',
  ): SignedRequest {
    const ephemeral = message.user !== undefined;
    return slackRequests.form({
      payload: JSON.stringify({
        type: 'block_actions',
        user: { id: user.id, team_id: user.team, name: user.name },
        team: { id: user.team },
        api_app_id: 'A0001',
        trigger_id: `trig${++eventSeq}`,
        container: {
          type: 'message',
          channel_id: message.channel,
          message_ts: message.ts,
          ...(ephemeral ? { is_ephemeral: true } : {}),
        },
        channel: { id: message.channel },
        ...(ephemeral
          ? {}
          : { message: { ts: message.ts, text: message.text, blocks: message.blocks ?? [] } }),
        response_url: responseUrl,
        actions: [{ type: 'button', action_id: actionId, block_id: 'b', value, action_ts: '1' }],
      }),
    });
  },
  /** Slack telling the app it was added to a channel (by `inviter`). */
  joined(channel: string, inviter: SlackUser | null, member = BOT_USER): SignedRequest {
    return slackRequests.event({
      type: 'member_joined_channel',
      user: member,
      channel,
      channel_type: 'C',
      team: TEAM,
      ...(inviter ? { inviter: inviter.id } : {}),
    });
  },
};

/** Every button of a message: its label, `action_id` and value (or url). */
export function buttonsOf(
  m: Pick<FakeMessage, 'blocks'> | undefined,
): Array<{ label: string; actionId: string; value: string; url?: string | undefined }> {
  const out: Array<{ label: string; actionId: string; value: string; url?: string | undefined }> =
    [];
  for (const block of m?.blocks ?? [])
    if (block.type === 'actions')
      for (const e of block.elements ?? [])
        if (e.type === 'button')
          out.push({
            label: typeof e.text === 'string' ? e.text : (e.text?.text ?? ''),
            actionId: e.action_id ?? '',
            value: e.value ?? '',
            url: e.url,
          });
  return out;
}

/** What a person reads in a message: its blocks' texts, else its fallback text. */
export function readable(m: Pick<FakeMessage, 'blocks' | 'text'> | undefined): string {
  if (!m) return '';
  const parts: string[] = [];
  for (const block of m.blocks ?? []) {
    if (block.text) parts.push(block.text.text);
    for (const f of block.fields ?? []) parts.push(f.text);
    if (block.type === 'context')
      for (const e of block.elements ?? []) if (typeof e.text === 'string') parts.push(e.text);
  }
  return parts.length > 0 ? `${m.text}\n${parts.join('\n')}` : m.text;
}

/** The file in an upload's body: the raw bytes, or the one part of a multipart/form-data body. */
function uploadedBytes(raw: Buffer, contentType: string): Uint8Array {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!contentType.startsWith('multipart/form-data') || !boundary) return new Uint8Array(raw);
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2] ?? ''}`);
  const start = raw.indexOf(marker);
  const headersEnd = raw.indexOf('\r\n\r\n', start);
  const next = raw.indexOf(marker, headersEnd);
  if (start < 0 || headersEnd < 0 || next < 0) return new Uint8Array(raw);
  // The part's content ends with the CRLF before the next boundary.
  return new Uint8Array(raw.subarray(headersEnd + 4, next - 2));
}
