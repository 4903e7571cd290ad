import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type McpServer,
  type MessageExtraInfo,
  ProtocolErrorCode,
  type RequestId,
  type ServerContext,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

import { DrainingStdioTransport } from './drainingStdio.ts';
import { noticeFor } from './notifications.ts';
import { createExhaleMcpServer, type RequestAuth, subscribedUris } from './server.ts';
import { type Actor, type Core, type Freshness, newFreshness, OpError, t } from '../core/index.ts';

export interface McpStdioDeps {
  core: Core;
  /** The token's agent (`--token`/EXHALE_TOKEN) or the local owner; the CLI resolves it. */
  actor: Actor;
  /**
   * The credential checked again for every request (a token: revoked, expired, its member gone,
   * their role or language changed), sharing the request's freshness check with its op calls:
   * the actor the request runs as, or null to refuse it. Absent (the local owner, who is whoever
   * can read the database file): `actor` serves every request.
   */
  recheck?: ((fresh: Freshness) => Promise<Actor | null>) | undefined;
  /** Where the connection is read and written (tests); process.stdin and process.stdout otherwise. */
  transport?: DrainingStdioTransport | undefined;
}

/** How the connection ended: its input closed, or its credential stopped working and it was refused. */
export type McpStdioEnd = 'closed' | 'refused';

/**
 * The JSON-RPC error code of a refused credential: in the range JSON-RPC leaves to servers, the
 * one MCP servers conventionally answer "unauthorized" with over stdio, where there is no 401.
 */
export const CREDENTIAL_REFUSED = -32001;

/**
 * Serves the same server over stdin/stdout (both protocol eras; the opening message picks one)
 * until stdin closes and every request received has been answered (DrainingStdioTransport); the
 * caller may then close the database. With `recheck`, every request is authenticated again before
 * it reaches the server, as every HTTP request is: the first one refused is answered with a
 * CREDENTIAL_REFUSED error in the member's language, so is everything after it, and the
 * connection ends once the requests admitted before are answered ('refused'). Change events of the
 * actor's household become resource notifications. Nothing but protocol messages goes to stdout:
 * while serving, console.log and console.info (knex's own logger among their users) write to stderr.
 */
export async function runMcpStdio(deps: McpStdioDeps): Promise<McpStdioEnd> {
  const { core, actor } = deps;
  const restoreConsole = consoleToStderr();
  let pinned: McpServer | undefined;
  const wire = deps.transport ?? new DrainingStdioTransport();
  const gate = deps.recheck ? new CredentialGate(wire, actor, deps.recheck) : null;
  const handle = serveStdio(
    (ctx) => {
      pinned = createExhaleMcpServer({
        core,
        actor,
        era: ctx.era,
        connection: true,
        ...(gate ? { requestAuth: (c: ServerContext) => gate.authOf(c.mcpReq.id) } : {}),
      });
      return pinned;
    },
    {
      transport: gate ?? wire,
      onerror: (error) => console.error('mcp stdio:', error.message),
    },
  );
  const unsubscribe = core.bus.subscribe((event) => {
    // A refused connection hears nothing more of the household.
    if (!pinned || gate?.refused || event.householdId !== actor.householdId) return;
    const notice = noticeFor(event);
    const server = pinned.server;
    // 2025 era: only what the client subscribed to; 2026 era: the SDK filters per listen stream.
    const subscribed = subscribedUris(pinned);
    for (const uri of notice.updated) {
      if (subscribed && !subscribed.has(uri)) continue;
      void server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
    if (notice.listChanged) void server.sendResourceListChanged().catch(() => undefined);
  });
  try {
    await wire.closed;
  } finally {
    unsubscribe();
    await handle.close();
    restoreConsole();
  }
  return gate?.refused ? 'refused' : 'closed';
}

/**
 * Checks the credential again for every message that asks something of the server, in the order
 * they came, before passing it on: a request gets the actor and freshness check it runs with
 * (`authOf`, by its id, until it is answered), or is answered here with CREDENTIAL_REFUSED; a
 * client's answer to the server's own question (a 2025-era confirmation) is passed on only while
 * the credential works, else it becomes that error (the change it would confirm is not applied).
 * Notifications pass unchecked: they ask for nothing. Once refused, always refused (a revoked or
 * expired token never works again, nor does a removed member's), and the transport closes as soon
 * as nothing admitted is still running.
 */
class CredentialGate implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  refused = false;
  private queue: Promise<void> = Promise.resolve();
  private readonly admitted = new Map<RequestId, RequestAuth>();

  constructor(
    private readonly inner: DrainingStdioTransport,
    private readonly base: Actor,
    private readonly recheck: (fresh: Freshness) => Promise<Actor | null>,
  ) {}

  /** The actor and freshness check a request admitted by the gate runs with. */
  authOf(id: RequestId): RequestAuth | undefined {
    return this.admitted.get(id);
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      // In arrival order: a request never overtakes the one before it while that one is checked.
      this.queue = this.queue.then(() => this.admit(message, extra));
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message, options);
    } finally {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
        if (message.id !== undefined && this.admitted.delete(message.id)) this.closeIfDone();
    }
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  private async admit(message: JSONRPCMessage, extra?: MessageExtraInfo): Promise<void> {
    const request = isJSONRPCRequest(message);
    // The client's answer to a question the server asked it (a 2025-era confirmation).
    const answer = !request && isJSONRPCResultResponse(message);
    if (!request && !answer) {
      this.onmessage?.(message, extra);
      // A cancelled request is never answered: it no longer keeps a refused connection open.
      if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        const id = message.params?.requestId;
        if ((typeof id === 'string' || typeof id === 'number') && this.admitted.delete(id))
          this.closeIfDone();
      }
      return;
    }
    const fresh = newFreshness();
    let actor: Actor | null;
    try {
      actor = this.refused ? null : await this.recheck(fresh);
    } catch (error) {
      // The database failed the check (busy, gone): this message fails, the next is checked anew.
      this.onerror?.(toError(error));
      await this.fail(
        message.id,
        answer,
        ProtocolErrorCode.InternalError,
        new OpError('internal').render(this.base.locale),
      );
      return;
    }
    if (!actor) {
      this.refused = true;
      await this.fail(message.id, answer, CREDENTIAL_REFUSED, t(this.base.locale, 'mcp.refused'));
      this.closeIfDone();
      return;
    }
    // A listen stream (2026 era) is served by the SDK's entry and answered only when it ends: it
    // runs no op, and must not keep a refused connection open.
    if (request && message.method !== 'subscriptions/listen')
      this.admitted.set(message.id, { actor, fresh });
    this.onmessage?.(message, extra);
  }

  /**
   * A request is answered here with the error; the client's answer to the server's question is
   * replaced by it, so the server's question fails (and what it was asked for is not done).
   */
  private async fail(id: RequestId, answer: boolean, code: number, text: string): Promise<void> {
    const error = { jsonrpc: '2.0' as const, id, error: { code, message: text } };
    if (answer) this.onmessage?.(error);
    else await this.inner.send(error).catch((e: unknown) => this.onerror?.(toError(e)));
  }

  /** Refused, with nothing admitted still running: the connection ends. */
  private closeIfDone(): void {
    if (this.refused && this.admitted.size === 0) void this.close().catch(() => undefined);
  }
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** Sends console.log and console.info to stderr until the returned function is called. */
function consoleToStderr(): () => void {
  const { log, info } = console;
  console.log = console.error;
  console.info = console.error;
  return () => {
    console.log = log;
    console.info = info;
  };
}
