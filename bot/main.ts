import { createAssistant, overridesFromEnv, stopOcr } from '../core/index.ts';
import { ChatEngine } from '../core/chat/index.ts';
import { lazyMcpFetchHandler } from '../mcp/lazyHttp.ts';
import { authorizationServer } from '../mcp/oauth/index.ts';
import { mcpRoutes } from '../mcp/routes.ts';
import { createMiniApp, IMPORT_UPLOAD_LIMITS } from '../miniapp/server/index.ts';
import { startChannels } from './channels.ts';
import { type Config, ConfigError, webBaseUrl } from './config.ts';
import { startEcbRefresh } from './ecbRates.ts';
import { createEdge, type Edge, type RouteGroup } from './http/app.ts';
import type { FetchHandler } from './http/fetchHandler.ts';
import { type HttpHost, listen } from './http/server.ts';
import { metricsRoutes } from './http/metricsRoutes.ts';
import { webhookRoutes } from './http/webhook.ts';
import { createLogger, logOpCalls } from './log.ts';
import { startMetrics } from './metrics.ts';
import { startTracing } from './tracing.ts';
import { describeDatabase, openRuntime, type Runtime } from './runtime.ts';
import { announceServer } from './serverAddress.ts';
import { stopInPhases, stopOnSignals } from './shutdown.ts';
import { EVENTS_PATH } from './slack/paths.ts';
import { WEBHOOK_PATH } from './telegram/paths.ts';

export interface RunningExhale {
  runtime: Runtime;
  http: HttpHost;
  /** The HTTP edge: mount a route group on it (`edge.mount(path, group)`). */
  edge: Edge;
  stop(): Promise<void>;
}

/**
 * The composition root of the primary process: configuration, database (migrated), core, the HTTP
 * edge with every surface's route group and every channel that is configured. With nothing
 * configured it still starts and says what to set next.
 */
export async function startExhale(
  config: Config,
  options: { quiet?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningExhale> {
  const runtime = await openRuntime(config);
  const tracing = await startTracing(options.env);
  // Quiet (an embedding test) keeps warnings and failures only.
  const logger = createLogger({
    level: options.quiet ? 'warn' : config.EXHALE_LOG_LEVEL,
    format: config.EXHALE_LOG_FORMAT,
  });
  const log = (line: string, error?: unknown): void => {
    if (error === undefined) logger.info(line);
    else logger.error({ err: error }, line);
  };
  const stopLoggingOps = runtime.core.observe(logOpCalls(logger));
  const edge = createEdge({ log, largerBodies: IMPORT_UPLOAD_LIMITS });
  const metrics = startMetrics(runtime.core);
  edge.mount('/', metricsRoutes(metrics, config.EXHALE_METRICS_TOKEN));
  const trustProxy = config.EXHALE_TRUST_PROXY === 'on';
  // The MCP SDK loads with the first MCP request (mcp/lazyHttp.ts), not at start.
  const mcp = lazyMcpFetchHandler({
    core: runtime.core,
    publicUrl: config.EXHALE_PUBLIC_URL,
    trustProxy,
  });
  edge.mount('/', mcpRoutes(mcp));
  edge.mount(
    '/',
    authorizationServer(runtime.core, {
      publicUrl: config.EXHALE_PUBLIC_URL,
      trustProxy,
      documentFetch: { trustedHosts: config.EXHALE_OAUTH_TRUSTED_DOCUMENT_HOSTS },
    }),
  );
  // The bot's @username, known once Telegram connected (getMe at its start): /api/me reads it.
  let botUsername = (): string | null => null;
  const miniApp = createMiniApp({
    core: runtime.core,
    botUsername: () => botUsername(),
    botToken: config.EXHALE_TELEGRAM_TOKEN,
    // Slack connects when its token is set (bot/channels.ts): an invite then says how to join there.
    slack: () => Boolean(config.EXHALE_SLACK_BOT_TOKEN),
    publicUrl: config.EXHALE_PUBLIC_URL,
    initDataMaxAgeSeconds: config.EXHALE_MINIAPP_INIT_DATA_MAX_AGE,
    appDir: config.EXHALE_MINIAPP_DIST,
    chat: new ChatEngine({
      core: runtime.core,
      webUrl: webBaseUrl(config),
      assistant: createAssistant({ core: runtime.core, config: overridesFromEnv(), log }),
      log,
    }),
    log: (line) => options.quiet || console.log(line),
  });
  edge.mount('/api', miniApp.api);
  edge.mount('/app', miniApp.app);
  edge.mount('/cal', miniApp.calendar);
  let http: HttpHost;
  try {
    http = await listen(edge, { port: config.EXHALE_PORT, host: config.EXHALE_HOST });
  } catch (error) {
    await mcp.close();
    await runtime.close();
    throw listenError(error, config);
  }
  const forgetAddress = announceServer(config.EXHALE_DATA_DIR, http.url);
  const households = (await runtime.db.knex('households').count({ n: '*' })) as Array<{
    n: number | string;
  }>;

  // The Telegram webhook arrives as a FetchHandler (possibly late: Telegram connects in the
  // background); it is served at the path Telegram posts to, behind the edge's JSON check.
  const mountWebhook = (handler: FetchHandler): void => {
    for (const path of webhookPaths(config.EXHALE_PUBLIC_URL))
      edge.mount(path, webhookRoutes(handler));
  };
  // Slack posts events, interactivity and slash commands to one URL, signed (checked by the routes).
  const mountSlack = (routes: RouteGroup): void => {
    for (const path of prefixed(EVENTS_PATH, config.EXHALE_PUBLIC_URL)) edge.mount(path, routes);
  };
  let channels;
  try {
    channels = await startChannels(runtime.core, config, mountWebhook, log, mountSlack);
    botUsername = channels.botUsername;
  } catch (error) {
    await mcp.close();
    await http.close();
    await runtime.close();
    throw error;
  }

  const lines = [
    `Exhale is running.`,
    `  Database: ${describeDatabase(config)} (${householdCount(Number(households[0]?.n ?? 0))})`,
    `  HTTP:     ${http.url} (health: ${http.url}/healthz)`,
    `  MCP:      ${http.url}/mcp (Streamable HTTP; remote agents connect with OAuth and a /connect code from chat, or \`npx exhale token create --scope read --name "My agent"\` for a token), or \`npx exhale mcp\` over stdio`,
    `  App:      ${config.EXHALE_PUBLIC_URL ? `${config.EXHALE_PUBLIC_URL.replace(/\/+$/, '')}/app/` : `${http.url}/app/`} (sign in with the link \`npx exhale web\` prints, or send /web to the bot)`,
    ...channels.status,
    ...(tracing ? [`  Traces:   exported over OTLP to ${tracing.endpoint}`] : []),
  ];
  const next: string[] = [];
  if (Number(households[0]?.n ?? 0) === 0)
    next.push(
      'create a household: `npx exhale init --name Home --currency EUR --time-zone Europe/Madrid --owner Ana` (or `npx exhale demo`)',
    );
  if (!config.EXHALE_PUBLIC_URL)
    next.push('serve webhooks and remote agents: set EXHALE_PUBLIC_URL');
  if (next.length > 0) lines.push('Next:', ...next.map((n) => `  - ${n}`));

  const ecb =
    config.EXHALE_ECB_RATES === 'on' ? startEcbRefresh(runtime.db, (line) => log(line)) : null;

  // Phases: stop taking requests and background work together (the listener closes at once, long
  // polling and the scheduler end, MCP's open streams close); then the requests in flight finish
  // (http); then the database closes, under the bound of stopInPhases.
  let stopping: Promise<{ stopped: boolean; open: string[] }> | null = null;
  const stopAll = (): Promise<{ stopped: boolean; open: string[] }> => {
    stopping ??= stopInPhases(
      [
        [
          { name: 'ECB refresh', stop: async () => ecb?.stop() },
          { name: 'channels and scheduler', stop: () => channels.stop() },
          { name: 'OCR worker', stop: () => stopOcr() },
          { name: 'MCP streams', stop: () => mcp.close() },
          { name: 'metrics', stop: async () => metrics.stop() },
          { name: 'op log', stop: async () => stopLoggingOps() },
          { name: 'Mini App event streams', stop: async () => miniApp.close() },
          { name: 'HTTP requests in flight', stop: () => http.close() },
          { name: 'server address', stop: async () => forgetAddress() },
        ],
        [
          { name: 'database', stop: () => runtime.close() },
          { name: 'trace export', stop: async () => tracing?.stop() },
        ],
      ],
      { log },
    );
    return stopping;
  };
  const stop = async (): Promise<void> => {
    await stopAll();
  };
  // Signals are handled before "Exhale is running" is printed: whoever waits for that line (a
  // supervisor, a test) may stop the process at once.
  if (!options.quiet) {
    stopOnSignals(stopAll, (line) => log(line));
    console.log(lines.join('\n'));
  }
  return { runtime, http, edge, stop };
}

/**
 * Where Telegram posts updates: `/telegram/webhook`, and also under the public URL's path when it
 * has one (https://example.com/exhale → /exhale/telegram/webhook) for a proxy that keeps the prefix.
 */
function webhookPaths(publicUrl: string | undefined): string[] {
  return prefixed(WEBHOOK_PATH, publicUrl);
}

/** A path, and the same under the public URL's path when it has one. */
function prefixed(path: string, publicUrl: string | undefined): string[] {
  const prefix = publicUrl ? new URL(publicUrl).pathname.replace(/\/+$/, '') : '';
  return prefix ? [path, `${prefix}${path}`] : [path];
}

/** A failure to listen, as a sentence naming the variable to change. */
function listenError(error: unknown, config: Config): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new ConfigError(
      `Port ${config.EXHALE_PORT} is already in use (another Exhale?). Stop it, or set EXHALE_PORT to another port.`,
    );
  }
  if (code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL') {
    return new ConfigError(
      `EXHALE_HOST "${config.EXHALE_HOST}" is not an address of this machine (try 127.0.0.1, or 0.0.0.0 for every interface).`,
    );
  }
  if (code === 'EACCES')
    return new ConfigError(
      `Port ${config.EXHALE_PORT} needs more privileges; set EXHALE_PORT to 1024 or above.`,
    );
  return error instanceof Error ? error : new Error(String(error));
}

/** "1 household", "3 households": the start banner's count. */
function householdCount(n: number): string {
  return n === 1 ? '1 household' : `${n} households`;
}
