import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import type { FakeTelegram, TgUser } from '../test/fakes/telegramBotApi.ts';
import type { BenchRow, BenchSuite } from './types.ts';
import { seedSyntheticRates, syntheticSubscription } from '../test/helpers/synthetic.ts';

// Everything else is imported where it is used, so the echo bot's process loads grammY and
// nothing of Exhale: its memory is the baseline of a bare bot.

/**
 * The Telegram bot's throughput and memory, measured through the project's fake Bot API over
 * loopback. The bot runs in a child process (so its memory is its own), long polling with the
 * runner exactly as in production; the parent plays the users. A bare grammY echo bot on the same
 * fake, in the same run, gives the baseline: the ratio is the cost of Exhale's work per update.
 */

const USERS = 50;
const SUBSCRIPTIONS = 500;
const WARMUP = 200;
const BATCH = 1_000;
const RUNS = 3;
const MEMORY_UPDATES = 10_000;
/** The longest one batch of updates may take before the bench fails (a few seconds is normal). */
const PUMP_LIMIT_MS = 120_000;
/** The command measured: it reads the whole 500-subscription household (costs converted to EUR). */
const COMMAND = '/totals';

interface ChildConfig {
  kind: 'exhale' | 'echo';
  apiRoot: string;
  token: string;
  sqliteFile: string;
}

type ToChild = { type: 'rss' } | { type: 'cpu' } | { type: 'stop' };
interface Memory {
  rss: number;
  /** V8 heap in use after a full garbage collection: what the process really keeps. */
  heapAfterGc: number;
}
/** CPU time the process has used so far (user + system), in ms. */
interface Cpu {
  cpuMs: number;
}
type FromChild =
  ({ type: 'ready' } & Memory) | ({ type: 'rss' } & Memory) | ({ type: 'cpu' } & Cpu);

function cpu(): Cpu {
  const used = process.cpuUsage();
  return { cpuMs: (used.user + used.system) / 1000 };
}

function memory(): Memory {
  (globalThis as { gc?: () => void }).gc?.();
  return { rss: process.memoryUsage().rss, heapAfterGc: process.memoryUsage().heapUsed };
}

// ---------------------------------------------------------------- the child: one bot process

async function runChild(config: ChildConfig): Promise<void> {
  const send = (message: FromChild): void => {
    process.send?.(message);
  };
  let stop: () => Promise<void>;
  if (config.kind === 'echo') {
    const { Bot } = await import('grammy');
    const { run } = await import('@grammyjs/runner');
    const bot = new Bot(config.token, { client: { apiRoot: config.apiRoot } });
    // A reply lost to a reset connection is sent again, as a production bot's retries would.
    bot.on('message:text', async (ctx) => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await ctx.reply(ctx.message.text);
          return;
        } catch (error) {
          if (attempt >= 3) throw error;
        }
      }
    });
    const runner = run(bot);
    stop = () => runner.stop();
  } else {
    const { openDatabase } = await import('../core/store/connection.ts');
    const { Core } = await import('../core/kernel/core.ts');
    const { catalog } = await import('../core/ops/catalog.ts');
    const { startTelegram } = await import('../bot/telegram/index.ts');
    const db = openDatabase({ sqliteFile: config.sqliteFile });
    const core = new Core({ db, catalog });
    const telegram = await startTelegram({
      core,
      token: config.token,
      apiRoot: config.apiRoot,
      log: (m, e) => console.error(m, e),
    });
    stop = async () => {
      await telegram.stop();
      await db.close();
    };
  }
  process.on('message', (message: ToChild) => {
    if (message.type === 'rss') send({ type: 'rss', ...memory() });
    else if (message.type === 'cpu') send({ type: 'cpu', ...cpu() });
    else void stop().then(() => process.exit(0));
  });
  send({ type: 'ready', ...memory() });
}

const childConfig = process.env.EXHALE_BENCH_TELEGRAM_CHILD;
if (childConfig) await runChild(JSON.parse(childConfig) as ChildConfig);

// ---------------------------------------------------------------- the parent: users and clocks

/** A SQLite file with one household of 500 subscriptions and USERS members, each with a Telegram id. */
async function seed(file: string): Promise<void> {
  const { newcomerActor } = await import('../core/kernel/actor.ts');
  const { Core } = await import('../core/kernel/core.ts');
  const { catalog } = await import('../core/ops/catalog.ts');
  const { migrate, openDatabase } = await import('../core/store/connection.ts');
  const db = openDatabase({ sqliteFile: file });
  await migrate(db);
  const core = new Core({ db, catalog });
  const created = await core.invoke(
    'create_household',
    newcomerActor('telegram', 'en', { telegram: '1000' }),
    {
      name: 'Bench',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    },
  );
  const householdId = created.output.household.id;
  const ownerId = created.output.member.id;
  const now = new Date().toISOString();
  const members = Array.from({ length: USERS - 1 }, (_, i) => ({
    id: `mem_bench${i}`,
    household_id: householdId,
    name: `Member ${i}`,
    role: 'member',
    language: 'en',
    reminder_offsets: '[3,1]',
    reminder_time: '09:00',
    created_at: now,
  }));
  await db.knex.batchInsert('members', members, 100);
  const identities = members.map((m, i) => ({
    id: `telegram:${1001 + i}`,
    member_id: m.id,
    platform: 'telegram',
    external_id: String(1001 + i),
    position: 0,
    created_at: now,
  }));
  await db.knex.batchInsert('member_identities', identities, 100);
  const subs = Array.from({ length: SUBSCRIPTIONS }, (_, i) =>
    syntheticSubscription(i, {
      householdId,
      memberId: () => ownerId,
      now,
      idPrefix: 'sub_bench',
      somePaused: false,
    }),
  );
  await db.knex.batchInsert('subscriptions', subs, 100);
  await seedSyntheticRates(db.knex);
  await db.close();
}

interface Child {
  process: ChildProcess;
  ready: Promise<Memory>;
  memory(): Promise<Memory>;
  cpu(): Promise<Cpu>;
  stop(): Promise<void>;
}

/**
 * EXHALE_BENCH_CPU_PROF=<folder>: the Exhale bot's process writes a V8 CPU profile there when it
 * stops (open it in Chrome's DevTools), to see where an update's time goes.
 */
function profiling(kind: ChildConfig['kind']): string[] {
  const folder = process.env.EXHALE_BENCH_CPU_PROF;
  return folder && kind === 'exhale' ? ['--cpu-prof', `--cpu-prof-dir=${folder}`] : [];
}

function startChild(config: ChildConfig): Child {
  const child = spawn(
    process.execPath,
    [...profiling(config.kind), '--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)],
    {
      env: { ...process.env, EXHALE_BENCH_TELEGRAM_CHILD: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const next = <T extends FromChild['type']>(type: T): Promise<Extract<FromChild, { type: T }>> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: FromChild): void => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as Extract<FromChild, { type: T }>);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`bench bot exited with ${String(code)}`)));
    });
  return {
    process: child,
    ready: next('ready'),
    async memory() {
      const answer = next('rss');
      child.send({ type: 'rss' } satisfies ToChild);
      return answer;
    },
    async cpu() {
      const answer = next('cpu');
      child.send({ type: 'cpu' } satisfies ToChild);
      return answer;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' } satisfies ToChild);
      await exited;
    },
  };
}

/** Sends `count` commands spread over the users' chats; resolves with the seconds until all are answered. */
async function pump(
  tg: FakeTelegram,
  users: TgUser[],
  count: number,
  text: string,
): Promise<number> {
  const target = tg.sentCount + count;
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) await tg.sendText(users[i % users.length]!, text);
  // Bounded: a bench that loses answers fails with a message instead of hanging.
  await tg.waitFor((api) => api.sentCount >= target, PUMP_LIMIT_MS, `${count} answers`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

interface Contender {
  tg: FakeTelegram;
  users: TgUser[];
  child: Child;
  text: string;
  start: Memory;
  rates: number[];
  /** The bot process's CPU time per update in each batch, in ms. */
  cpuPerUpdate: number[];
}

async function contender(kind: ChildConfig['kind'], sqliteFile: string): Promise<Contender> {
  const { FakeTelegram } = await import('../test/fakes/telegramBotApi.ts');
  const tg = await new FakeTelegram().start();
  const users = Array.from({ length: USERS }, (_, i) => tg.user(1000 + i, `User ${i}`));
  const child = startChild({ kind, apiRoot: tg.apiRoot, token: tg.token, sqliteFile });
  const text = kind === 'echo' ? 'hello' : COMMAND;
  const start = await child.ready;
  await pump(tg, users, WARMUP, text);
  return { tg, users, child, text, start, rates: [], cpuPerUpdate: [] };
}

async function batch(c: Contender): Promise<void> {
  const before = await c.child.cpu();
  c.rates.push(BATCH / (await pump(c.tg, c.users, BATCH, c.text)));
  c.cpuPerUpdate.push(((await c.child.cpu()).cpuMs - before.cpuMs) / BATCH);
}

async function dispose(c: Contender): Promise<void> {
  await c.child.stop();
  await c.tg.stop();
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;

export const suite: BenchSuite = {
  name: 'telegram',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'exhale-bench-tg-'));
    try {
      const file = path.join(dir, 'exhale.sqlite');
      await seed(file);
      // Both bots run side by side and their batches alternate, so both see the same machine.
      const echo = await contender('echo', file);
      const exhale = await contender('exhale', file);
      let after: Memory;
      try {
        for (let run = 0; run < RUNS; run += 1) {
          await batch(echo);
          await batch(exhale);
        }
        await dispose(echo);
        await pump(exhale.tg, exhale.users, MEMORY_UPDATES - WARMUP - RUNS * BATCH, COMMAND);
        after = await exhale.child.memory();
        const reply = exhale.tg.lastBotMessage(exhale.users[0]!.id)?.text ?? '';
        if (!reply.includes('Totals')) throw new Error(`unexpected answer to ${COMMAND}: ${reply}`);
      } finally {
        if (echo.child.process.exitCode === null) await dispose(echo);
        await dispose(exhale);
      }
      const exhaleRate = median(exhale.rates);
      const echoRate = median(echo.rates);
      const exhaleCpu = median(exhale.cpuPerUpdate);
      const echoCpu = median(echo.cpuPerUpdate);
      return [
        {
          name: `${COMMAND} on ${SUBSCRIPTIONS} subscriptions (sqlite)`,
          median: exhaleRate,
          unit: 'upd/s',
          note: `${(exhaleRate / echoRate).toFixed(2)}x a bare grammY echo bot; ${USERS} chats, runner long polling`,
        },
        {
          name: 'bare grammY echo bot, same fake',
          median: echoRate,
          unit: 'upd/s',
          note: `median of ${RUNS} batches of ${BATCH}, alternating with the batches above`,
        },
        {
          name: `${COMMAND}: bot process CPU per update`,
          median: Math.round(exhaleCpu * 1000),
          unit: 'µs',
          note: `bare echo bot ${Math.round(echoCpu * 1000)} µs: ${(echoCpu / exhaleCpu).toFixed(2)}x by CPU, which a busy neighbour hardly moves`,
        },
        {
          name: 'bot process RSS after start',
          median: mb(exhale.start.rss),
          unit: 'MB',
          note: `heap ${mb(exhale.start.heapAfterGc)} MB after GC; bare echo bot: ${mb(echo.start.rss)} MB RSS`,
        },
        {
          name: `bot process RSS after ${MEMORY_UPDATES.toLocaleString('en')} updates`,
          median: mb(after.rss),
          unit: 'MB',
          note: `heap ${mb(after.heapAfterGc)} MB after GC (${after.heapAfterGc >= exhale.start.heapAfterGc ? '+' : ''}${mb(after.heapAfterGc - exhale.start.heapAfterGc)} MB since start)`,
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
