import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

import { DrainingStdioTransport } from './drainingStdio.ts';
import { noticeFor } from './notifications.ts';
import { createExhaleMcpServer, subscribedUris } from './server.ts';
import type { Actor, Core } from '../core/index.ts';

export interface McpStdioDeps {
  core: Core;
  /** The token's agent (`--token`/EXHALE_TOKEN) or the local owner; the CLI resolves it. */
  actor: Actor;
}

/**
 * Serves the same server over stdin/stdout (both protocol eras; the opening message picks one)
 * until stdin closes and every request received has been answered (DrainingStdioTransport); the
 * caller may then close the database. Change events of the actor's household become resource
 * notifications. Nothing but protocol messages goes to stdout: while serving, console.log and
 * console.info (knex's own logger among their users) write to stderr.
 */
export async function runMcpStdio(deps: McpStdioDeps): Promise<void> {
  const { core, actor } = deps;
  const restoreConsole = consoleToStderr();
  let pinned: McpServer | undefined;
  const transport = new DrainingStdioTransport();
  const handle = serveStdio(
    (ctx) => {
      pinned = createExhaleMcpServer({ core, actor, era: ctx.era, connection: true });
      return pinned;
    },
    { transport, onerror: (error) => console.error('mcp stdio:', error.message) },
  );
  const unsubscribe = core.bus.subscribe((event) => {
    if (!pinned || event.householdId !== actor.householdId) return;
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
    await transport.closed;
  } finally {
    unsubscribe();
    await handle.close();
    restoreConsole();
  }
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
