import { PassThrough, type Readable, type Writable } from 'node:stream';

import {
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/client';

import { DrainingStdioTransport } from '../../mcp/drainingStdio.ts';

/**
 * A client transport over a pair of streams (a child's stdout and stdin, or an in-process pipe):
 * newline-delimited JSON-RPC, as MCP's stdio transport. It closes when its input ends.
 */
export class StreamClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage())
        this.onmessage?.(message);
    });
    this.input.once('end', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.output.writable) this.output.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.output.end();
  }
}

/**
 * A stdio connection inside the test process: the server's transport (for `runMcpStdio`'s
 * `transport`) and the client's, joined by two pipes. Every byte the server writes, `written`
 * holds.
 */
export function stdioPair(): {
  server: DrainingStdioTransport;
  client: StreamClientTransport;
  written: () => string;
} {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  let text = '';
  toClient.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return {
    server: new DrainingStdioTransport(toServer, toClient),
    client: new StreamClientTransport(toClient, toServer),
    written: () => text,
  };
}
