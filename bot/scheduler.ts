import { purgeExpiredFlows, purgeFirstTimes, reminderReply } from '../core/chat/index.ts';
import {
  claimReminder,
  type Core,
  type Deliverer,
  findDueReminders,
  localDate,
  markFailed,
  markSent,
  purgeExpiredCredentials,
  purgeReminderLog,
  runClaimedJob,
} from '../core/index.ts';

export interface SchedulerDeps {
  core: Core;
  /**
   * The channels of this process (a `ChannelRegistry`): a reminder is claimed only for a member
   * one of them reaches, and delivered once through the member's first channel that works; a
   * throw (every channel failed) counts as a failed send.
   */
  channels: Deliverer;
  /** Time between ticks; default 30 s (reminder times have minute precision). */
  intervalMs?: number;
  clock?: () => Date;
  log?: (message: string, error?: unknown) => void;
}

export interface Scheduler {
  stop(): void;
  /** Runs one tick now; resolves with how many reminders this process sent. */
  tick(): Promise<number>;
}

const PURGE_SCHEDULE = { everyMs: 60 * 60_000, leaseMs: 10 * 60_000 };

/**
 * Sends due reminders. Each tick finds what is due (catching up on anything missed while no
 * process ran), claims each reminder in the sent-log before sending it, so with several processes
 * on one database each reminder goes out once, and records the outcome. A reminder for a member
 * no channel of this process reaches is left unclaimed, for a process that does reach them (or
 * for later, once the member has a channel). Ticks never overlap.
 */
export function startScheduler(deps: SchedulerDeps): Scheduler {
  const clock = deps.clock ?? deps.core.clock;
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const db = deps.core.db;
  let running: Promise<number> | null = null;
  let stopped = false;

  async function once(): Promise<number> {
    const now = clock();
    let sent = 0;
    const reachable = new Map<string, boolean>();
    for (const due of await findDueReminders(db, now)) {
      if (stopped) break;
      const memberId = due.reminder.memberId;
      let reached = reachable.get(memberId);
      if (reached === undefined) {
        reached = await deps.channels.reaches(memberId);
        reachable.set(memberId, reached);
      }
      if (!reached) continue;
      const token = await claimReminder(db, due, now);
      if (token === null) continue;
      try {
        const reply = await reminderReply(deps.core, due.reminder, now);
        // A channel that went off since the check: retried after the lease, like a failed send.
        if ((await deps.channels.deliver(memberId, reply)) === null)
          throw new Error('no channel reaches the member any more');
        await markSent(db, due.reminder.key, token, clock());
        sent += 1;
      } catch (error) {
        log(`scheduler: reminder ${due.reminder.key} failed`, error);
        await markFailed(
          db,
          due.reminder.key,
          token,
          clock(),
          error instanceof Error ? error.message : String(error),
        );
      }
    }
    // Once an hour across every process on the database (the job_runs claim), not once per process.
    if (!stopped)
      await runClaimedJob(db, 'purge_expired', now, PURGE_SCHEDULE, async () => {
        await purgeExpiredFlows(db, now);
        await purgeFirstTimes(db, now);
        await purgeReminderLog(db, localDate(now, 'UTC'));
      });
    // Expired agent tokens, web sessions, OAuth codes and tokens, and clients nobody connected.
    if (!stopped)
      await runClaimedJob(db, 'credentials_cleanup', now, PURGE_SCHEDULE, async () => {
        await purgeExpiredCredentials(db, now);
      });
    return sent;
  }

  function tick(): Promise<number> {
    if (running) return running.then(() => tick());
    running = once().finally(() => {
      running = null;
    });
    return running;
  }

  const timer = setInterval(() => {
    if (running || stopped) return;
    tick().catch((error: unknown) => log('scheduler: tick failed', error));
  }, deps.intervalMs ?? 30_000);
  timer.unref();

  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
    tick,
  };
}
