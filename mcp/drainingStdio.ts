import { PassThrough, type Readable, type Writable } from 'node:stream';

import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** How long requests still running when stdin ends may take to be answered before we close anyway. */
const DRAIN_LIMIT_MS = 30_000;

/**
 * The stdio transport, except that the end of stdin does not abort the requests still running:
 * the SDK's transport closes the moment stdin ends, and requests in flight are then never
 * answered. Here stdin is fed through a stream of our own, which ends only once every request
 * received has had its response written (or was cancelled by the client), or after
 * DRAIN_LIMIT_MS. `closed` resolves when the transport has closed, for whatever reason.
 */
export class DrainingStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  readonly closed: Promise<void>;
  private readonly input = new PassThrough();
  private readonly inner: StdioServerTransport;
  private readonly pending = new Set<RequestId>();
  private draining = false;
  private drainTimer: NodeJS.Timeout | undefined;
  private markClosed: () => void = () => undefined;

  constructor(
    private readonly stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
  ) {
    this.inner = new StdioServerTransport(this.input, stdout);
    this.closed = new Promise<void>((resolve) => (this.markClosed = resolve));
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message) => {
      if (isJSONRPCRequest(message)) this.pending.add(message.id);
      else if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        const id = message.params?.requestId;
        if (typeof id === 'string' || typeof id === 'number') this.answered(id);
      }
      this.onmessage?.(message);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      clearTimeout(this.drainTimer);
      this.markClosed();
      this.onclose?.();
    };
    await this.inner.start();
    this.stdin.on('data', this.forward);
    this.stdin.once('end', this.drain);
    this.stdin.once('close', this.drain);
  }

  /** Options (related request, resumption) mean nothing on one ordered stdio stream. */
  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message);
    } finally {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
        if (message.id !== undefined) this.answered(message.id);
    }
  }

  async close(): Promise<void> {
    this.stop();
    await this.inner.close();
  }

  private readonly forward = (chunk: Buffer | string) => {
    this.input.write(chunk);
  };

  /** Stdin has ended: finish once every request is answered (or the limit passes). */
  private readonly drain = () => {
    if (this.draining) return;
    this.draining = true;
    this.drainTimer = setTimeout(() => this.finish(), DRAIN_LIMIT_MS);
    this.drainTimer.unref();
    if (this.pending.size === 0) this.finish();
  };

  private answered(id: RequestId): void {
    this.pending.delete(id);
    if (this.draining && this.pending.size === 0) this.finish();
  }

  /** Ends our input stream, which closes the SDK's transport as the end of stdin would have. */
  private finish(): void {
    this.stop();
    this.input.end();
  }

  private stop(): void {
    clearTimeout(this.drainTimer);
    this.stdin.off('data', this.forward);
    this.stdin.off('end', this.drain);
    this.stdin.off('close', this.drain);
    // A stdin left flowing would keep the process alive after the connection is over.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
  }
}
