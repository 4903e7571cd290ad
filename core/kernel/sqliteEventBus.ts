import type { Database } from '../store/connection.ts';
import { auditEntriesAfter, latestAuditSeq } from '../store/repos/audit.ts';
import { eventOf } from './auditEvents.ts';
import { type CoreEvent, type EventBus, InMemoryEventBus, type Listener } from './events.ts';

/** How often another process's commits are looked for: a change shows on open screens within it. */
export const SQLITE_POLL_MS = 250;
/** Audit entries read per query while catching up (a bulk import from the CLI writes many). */
const BATCH = 500;
/** How many delivered audit ids are remembered to deliver each event once. */
const DELIVERED_MEMORY = 10_000;

export interface SqliteEventBusOptions {
  db: Database;
  /** Default SQLITE_POLL_MS. */
  intervalMs?: number;
  log?: (line: string, error?: unknown) => void;
}

/**
 * Change events across every process on one SQLite file (the server, `exhale chat`, `exhale mcp`,
 * a one-shot `exhale op` beside them). `publish` delivers to this process's listeners at once.
 * Every SQLITE_POLL_MS it reads `PRAGMA data_version` on the writer's connection, which moves only
 * when another connection commits; then it reads the audit entries committed since the last it
 * saw (SQLite commits one writer at a time, so audit order is commit order) and delivers each,
 * once, as the change event it stands for. Consumers treat events as hints to re-read, as on
 * PostgreSQL (PostgresEventBus).
 *
 * It does not claim to hear every process at once (no `hearsEveryProcess`): SQLite's read cache
 * checks `data_version` itself before every read, and a polled event comes up to one interval late.
 */
export class SqliteEventBus implements EventBus {
  private readonly local = new InMemoryEventBus();
  private readonly delivered = new Set<string>();
  private readonly intervalMs: number;
  private readonly log: (line: string, error?: unknown) => void;
  /** The last audit sequence looked at; null before `start`. */
  private mark: number | null = null;
  /** `data_version` when the audit entries were last read. */
  private version: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly options: SqliteEventBusOptions) {
    this.intervalMs = options.intervalMs ?? SQLITE_POLL_MS;
    this.log = options.log ?? ((line, error) => console.error(line, error ?? ''));
  }

  /** Takes the current audit sequence as the mark and starts looking for other processes' commits. */
  async start(): Promise<void> {
    this.version = await this.dataVersion();
    this.mark = await latestAuditSeq(this.options.db.knex);
    this.schedule();
  }

  publish(event: CoreEvent): void {
    this.deliver(event);
  }

  subscribe(listener: Listener): () => void {
    return this.local.subscribe(listener);
  }

  /**
   * Looks once, now, for commits of other processes and delivers their events; resolves when they
   * are delivered. The timer calls it; a caller may too (a test, a process about to answer).
   */
  poll(): Promise<void> {
    this.polling ??= this.look().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  /** Stops looking; resolves once a look in progress has ended. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.poll()
        .catch((error: unknown) => this.log('events: could not look for other processes', error))
        .finally(() => this.schedule());
    }, this.intervalMs);
    // A one-shot command ends when its work does, not when this timer would let it.
    this.timer.unref();
  }

  private async look(): Promise<void> {
    if (this.closed || this.mark === null) return;
    const version = await this.dataVersion();
    if (version === this.version) return;
    // Taken before the entries are read: a commit after this read moves it again, and is read then.
    this.version = version;
    for (;;) {
      const rows = await auditEntriesAfter(this.options.db.knex, this.mark, BATCH);
      for (const row of rows) {
        this.mark = Math.max(this.mark, Number(row.seq));
        if (!this.closed) this.deliver(eventOf(row));
      }
      if (rows.length < BATCH) return;
    }
  }

  /** The writer connection's `data_version` (the prepared probe, or knex until it is open). */
  private async dataVersion(): Promise<number> {
    const probed = this.options.db.dataVersion?.read();
    if (probed) return probed;
    const rows = (await this.options.db.knex.raw('PRAGMA data_version')) as Array<{
      data_version?: number;
    }>;
    return Number(rows[0]?.data_version ?? 0);
  }

  /** Delivers to this process's listeners, once per audit entry. */
  private deliver(event: CoreEvent): void {
    if (this.delivered.has(event.auditId)) return;
    this.delivered.add(event.auditId);
    if (this.delivered.size > DELIVERED_MEMORY) {
      const oldest = this.delivered.values().next().value;
      if (oldest !== undefined) this.delivered.delete(oldest);
    }
    this.local.publish(event);
  }
}
