import { type ChannelWork, startChannelWork } from '../../bot/channels.ts';
import { createEdge } from '../../bot/http/app.ts';
import type { FetchHandler } from '../../bot/http/fetchHandler.ts';
import { type HttpHost, listen } from '../../bot/http/server.ts';
import { webhookRoutes } from '../../bot/http/webhook.ts';
import type { Scheduler } from '../../bot/scheduler.ts';
import { telegramAdapter } from '../../bot/telegram/adapter.ts';
import { type TelegramHandle, WEBHOOK_PATH } from '../../bot/telegram/index.ts';
import { ChannelRegistry } from '../../core/channels/index.ts';
import type { StreamingOptions } from '../../bot/telegram/live.ts';
import type { ChatAssistant } from '../../core/chat/index.ts';
import { memberActor, newcomerActor, type Actor } from '../../core/kernel/actor.ts';
import { Core } from '../../core/kernel/core.ts';
import { catalog } from '../../core/ops/catalog.ts';
import type { Database } from '../../core/store/connection.ts';
import { FakeTelegram, type TgUser } from '../fakes/telegramBotApi.ts';
import { openSharedTestDatabase } from '../helpers/sharedDatabase.ts';
import { openTestDatabase, TEST_NOW } from '../helpers/testCore.ts';

/**
 * Opens `n` connections (pools) to one fresh database, as `n` processes would: a temporary SQLite
 * file, or a schema of its own on the test PostgreSQL server.
 */
export async function openSharedDatabases(
  n: number,
): Promise<{ dbs: Database[]; close(): Promise<void> }> {
  const shared = await openSharedTestDatabase();
  return { dbs: Array.from({ length: n }, () => shared.open()), close: () => shared.close() };
}

export interface BotProcess {
  core: Core;
  telegram: TelegramHandle;
  /** The process's channel registry (Telegram, plus any a test registers). */
  channels: ChannelRegistry;
  scheduler: Scheduler;
  http: HttpHost | null;
  /** Webhook requests this process answered (behind the balancer). */
  hits: number;
  stop(): Promise<void>;
}

export interface World {
  tg: FakeTelegram;
  clock: { now: Date };
  cores: Core[];
  /** Errors the bot logged: a scenario checks it stayed empty (or has exactly the expected ones). */
  logged: Array<{ message: string; error: unknown }>;
  /** Resolves once a process has logged a message equal to `message` (it is checked on every log). */
  waitForLog(message: string): Promise<void>;
  start(options?: {
    mode?: 'polling' | 'webhook';
    index?: number;
    miniAppUrl?: string;
    assistant?: ChatAssistant;
    streaming?: Partial<StreamingOptions>;
  }): Promise<BotProcess>;
  /** Every process on webhooks behind one round-robin load balancer (the public URL). */
  startBalanced(): Promise<BotProcess[]>;
  close(): Promise<void>;
}

/**
 * One process's channels as `exhale` starts them (bot/channels.ts): a registry with the Telegram
 * adapter, started, and the scheduler and agent notices over it. The scheduler ticks only when a
 * test calls `tick()`.
 */
async function startProcessChannels(
  core: Core,
  log: (message: string, error?: unknown) => void,
  deps: Omit<Parameters<typeof telegramAdapter>[0], 'core' | 'log'>,
): Promise<{
  registry: ChannelRegistry;
  telegram: TelegramHandle;
  work: ChannelWork;
  stop(): Promise<void>;
}> {
  const registry = new ChannelRegistry(core.db, log);
  const adapter = telegramAdapter({ ...deps, core, log });
  registry.register(adapter);
  await registry.start();
  const telegram = adapter.handle;
  if (!telegram) throw new Error('Telegram did not start');
  const work = startChannelWork(core, registry, log, {
    intervalMs: 3_600_000,
    clock: () => new Date(core.clock()),
  });
  return {
    registry,
    telegram,
    work,
    async stop() {
      work.stop();
      await registry.stop();
    },
  };
}

/**
 * A fake Telegram and `processes` cores over one database, each able to start the real bot and
 * scheduler. The clock is shared and settable (reminders, DST).
 */
export async function createWorld(
  options: { processes?: number; now?: Date } = {},
): Promise<World> {
  const tg = await new FakeTelegram().start();
  const clock = { now: new Date(options.now ?? TEST_NOW) };
  const n = options.processes ?? 1;
  const shared = n === 1 ? null : await openSharedDatabases(n);
  const dbs = shared ? shared.dbs : [await openTestDatabase()];
  const cores = dbs.map((db) => new Core({ db, catalog, clock: () => new Date(clock.now) }));
  const logged: World['logged'] = [];
  const logWaiters = new Set<() => void>();
  const record = (message: string, error: unknown): void => {
    logged.push({ message, error });
    for (const waiter of [...logWaiters]) waiter();
  };
  const running: BotProcess[] = [];
  const world: World = {
    tg,
    clock,
    cores,
    logged,
    waitForLog(message) {
      return new Promise((resolve) => {
        const check = (): void => {
          if (!logged.some((l) => l.message === message)) return;
          logWaiters.delete(check);
          resolve();
        };
        logWaiters.add(check);
        check();
      });
    },
    async start(opts = {}) {
      const core = cores[opts.index ?? 0];
      if (!core) throw new Error('no such process');
      const log = (message: string, error?: unknown): void => {
        record(message, error);
      };
      let http: HttpHost | null = null;
      let handler: ((r: Request) => Promise<Response | null>) | null = null;
      if (opts.mode === 'webhook') {
        // The webhook is mounted once Telegram is up, as bot/main.ts does.
        const edge = createEdge({ log });
        http = await listen(edge, { port: 0 });
        edge.mount(
          WEBHOOK_PATH,
          webhookRoutes((request) => (handler ? handler(request) : Promise.resolve(null))),
        );
      }
      const channel = await startProcessChannels(core, log, {
        token: tg.token,
        apiRoot: tg.apiRoot,
        publicUrl: http?.url,
        miniAppUrl: opts.miniAppUrl,
        assistant: opts.assistant,
        streaming: opts.streaming,
        mount: (h) => {
          handler = h;
        },
      });
      const proc: BotProcess = {
        core,
        telegram: channel.telegram,
        channels: channel.registry,
        http,
        hits: 0,
        scheduler: channel.work.scheduler,
        async stop() {
          await channel.stop();
          await http?.close();
        },
      };
      running.push(proc);
      return proc;
    },
    async startBalanced() {
      const pool: FetchHandler[] = [];
      let next = 0;
      const edge = createEdge({ log: (message, error) => logged.push({ message, error }) });
      const balancer = await listen(edge, { port: 0 });
      edge.mount(
        WEBHOOK_PATH,
        webhookRoutes((request) => {
          const handler = pool[next % pool.length];
          next += 1;
          return handler ? handler(request) : Promise.resolve(null);
        }),
      );
      const procs: BotProcess[] = [];
      for (const [index, core] of cores.entries()) {
        const log = (message: string, error?: unknown): void => {
          record(`[${index}] ${message}`, error);
        };
        const channel = await startProcessChannels(core, log, {
          token: tg.token,
          apiRoot: tg.apiRoot,
          publicUrl: balancer.url,
          mount: (webhook) => {
            pool.push((request) => {
              proc.hits += 1;
              return webhook(request);
            });
          },
        });
        const proc: BotProcess = {
          core,
          telegram: channel.telegram,
          channels: channel.registry,
          http: index === 0 ? balancer : null,
          hits: 0,
          scheduler: channel.work.scheduler,
          async stop() {
            await channel.stop();
            if (proc.http) await proc.http.close();
          },
        };
        running.push(proc);
        procs.push(proc);
      }
      return procs;
    },
    async close() {
      for (const proc of running) await proc.stop();
      await tg.stop();
      if (shared) await shared.close();
      else for (const db of dbs) await db.close();
    },
  };
  return world;
}

/** A household created directly through the core for a Telegram user (quicker than onboarding by chat). */
export async function seedHousehold(
  core: Core,
  user: TgUser,
  options: { currency?: string; timeZone?: string; language?: 'en' | 'es' } = {},
): Promise<{ householdId: string; memberId: string; actor: Actor }> {
  const language = options.language ?? 'en';
  const created = await core.invoke(
    'create_household',
    newcomerActor('telegram', language, { telegram: String(user.id) }),
    {
      name: `${user.first_name}'s home`,
      currency: options.currency ?? 'EUR',
      time_zone: options.timeZone ?? 'Europe/Madrid',
      language,
      owner_name: user.first_name,
    },
  );
  const { household, member } = created.output as {
    household: { id: string };
    member: { id: string };
  };
  return {
    householdId: household.id,
    memberId: member.id,
    actor: memberActor(
      { id: member.id, household_id: household.id, role: 'owner', language },
      'telegram',
    ),
  };
}
