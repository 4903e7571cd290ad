import { randomBytes } from 'node:crypto';

import type pg from 'pg';

import type { Database } from '../store/connection.ts';
import { auditEntriesAfter, auditEntryById, latestAuditSeq } from '../store/repos/audit.ts';
import { eventOf } from './auditEvents.ts';
import {
  type ChangeEvent,
  type CoreEvent,
  type EventBus,
  InMemoryEventBus,
  type Listener,
} from './events.ts';

/**
 * NOTIFY refuses payloads of 8,000 bytes or more; an event bigger than this travels as its audit
 * entry's id and is rebuilt from the entry by each process that receives it.
 */
export const MAX_NOTIFY_BYTES = 7_900;
const BACKOFF_FIRST_MS = 100;
/**
 * Catching up after a reconnection starts this many entries before the mark taken at the last
 * connection (an entry numbered before the mark may commit after it), and re-reads at most
 * CATCH_UP_LIMIT entries; events already delivered are recognised by their audit id.
 */
const CATCH_UP_OVERLAP = 100;
const CATCH_UP_LIMIT = 2_000;
/** How many delivered audit ids are remembered to deliver each event once. */
const DELIVERED_MEMORY = 10_000;
const BACKOFF_MAX_MS = 5_000;

/** What goes through NOTIFY: the sender's id, and the event or the audit entry to rebuild it from. */
type Wire = { o: string; e: CoreEvent } | { o: string; h: string; k: CoreEvent['kind']; a: string };

export interface PostgresEventBusOptions {
  /** The database the events are about (its pool sends NOTIFY and reads audit entries). */
  db: Database;
  /**
   * Makes the one client that LISTENs, outside the pool: a pooled connection would be handed to
   * other queries and lose the LISTEN. Called again after each disconnection.
   */
  connect: () => pg.Client;
  log?: (line: string, error?: unknown) => void;
}

/**
 * Change events across every process on one PostgreSQL database. `publish` delivers to this
 * process's listeners at once and sends the event with NOTIFY on one channel per schema (two
 * installations in one database do not hear each other); the listening client delivers what other
 * processes sent and ignores what this one sent, so each event reaches each listener once.
 *
 * NOTIFY is not durable: while this process is disconnected (until it reconnects, with backoff)
 * nothing reaches it. On reconnecting it catches up from the audit log: every change committed
 * since its last connection (by audit sequence) is delivered, once, as a change event rebuilt from
 * its entry. Consumers still treat events as hints to re-read, never as data.
 */
export class PostgresEventBus implements EventBus {
  private readonly local = new InMemoryEventBus();
  private readonly origin = randomBytes(8).toString('hex');
  private readonly log: (line: string, error?: unknown) => void;
  private channel: string | null = null;
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private backoff = BACKOFF_FIRST_MS;
  private readonly sending = new Set<Promise<void>>();
  private readonly listening = new Set<() => void>();
  /** Audit ids delivered to this process's listeners lately, oldest first. */
  private readonly delivered = new Set<string>();
  /** The audit sequence when the listening client last connected; null before the first. */
  private mark: number | null = null;
  /** Successful connections of the listening client so far (see hearsEveryProcess). */
  private connections = 0;

  constructor(private readonly options: PostgresEventBusOptions) {
    this.log = options.log ?? ((line, error) => console.error(line, error ?? ''));
  }

  /** Connects the listening client; resolves once this process hears other processes' events. */
  async start(): Promise<void> {
    const rows = (await this.options.db.knex.raw('select current_schema() as s')) as {
      rows: Array<{ s: string }>;
    };
    this.channel = `exhale_events:${rows.rows[0]?.s ?? 'public'}`;
    await this.connect();
  }

  publish(event: CoreEvent): void {
    this.deliver(event);
    if (this.channel === null || this.closed) return;
    const sent = this.notify(this.channel, event)
      .catch((error: unknown) => this.log('events: NOTIFY failed', error))
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  subscribe(listener: Listener): () => void {
    return this.local.subscribe(listener);
  }

  hearsEveryProcess(): number | null {
    return this.client === null ? null : this.connections;
  }

  /** Resolves once every NOTIFY sent so far has gone (for a clean shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.sending]);
  }

  /** Resolves the next time the listening client is (re)connected (tests of reconnection). */
  whenListening(): Promise<void> {
    return new Promise((resolve) => this.listening.add(resolve));
  }

  /** Sends what is pending, stops listening and reconnecting. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async notify(channel: string, event: CoreEvent): Promise<void> {
    let payload = JSON.stringify({ o: this.origin, e: event } satisfies Wire);
    if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES)
      payload = JSON.stringify({
        o: this.origin,
        h: event.householdId,
        k: event.kind,
        a: event.auditId,
      } satisfies Wire);
    await this.options.db.knex.raw('select pg_notify(?, ?)', [channel, payload]);
  }

  private async connect(): Promise<void> {
    const client = this.options.connect();
    const lost = (error?: unknown): void => {
      if (this.client !== client) return;
      this.client = null;
      void client.end().catch(() => undefined);
      if (error !== undefined) this.log('events: the listening connection was lost', error);
      this.reconnectLater();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload !== undefined)
        void this.receive(message.payload);
    });
    await client.connect();
    await client.query(`LISTEN ${client.escapeIdentifier(this.channel ?? '')}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.client = client;
    this.connections += 1;
    this.backoff = BACKOFF_FIRST_MS;
    // Listening again: what committed since the last connection was not heard; read it back.
    const previous = this.mark;
    this.mark = await latestAuditSeq(this.options.db.knex);
    if (previous !== null) await this.catchUp(previous);
    for (const resolve of this.listening) resolve();
    this.listening.clear();
  }

  private reconnectLater(): void {
    if (this.closed || this.retry) return;
    const wait = this.backoff * (0.5 + Math.random() / 2);
    this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX_MS);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch((error: unknown) => {
        this.log('events: cannot listen yet, retrying', error);
        this.reconnectLater();
      });
    }, wait);
    this.retry.unref();
  }

  private async receive(payload: string): Promise<void> {
    let wire: Wire;
    try {
      wire = JSON.parse(payload) as Wire; // written by notify() above, of this code's version
    } catch {
      return;
    }
    if (wire.o === this.origin) return;
    const event = 'e' in wire ? wire.e : await rebuild(this.options.db, wire.a);
    if (event) this.deliver(event);
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

  private async catchUp(previousMark: number): Promise<void> {
    try {
      const rows = await auditEntriesAfter(
        this.options.db.knex,
        Math.max(0, previousMark - CATCH_UP_OVERLAP),
        CATCH_UP_LIMIT,
      );
      for (const row of rows) this.deliver(eventOf(row));
    } catch (error) {
      this.log('events: could not catch up after reconnecting', error);
    }
  }
}

/** A change event rebuilt from its audit entry (an event too big for NOTIFY). */
async function rebuild(db: Database, auditId: string): Promise<ChangeEvent | null> {
  const row = await auditEntryById(db.knex, auditId);
  return row ? eventOf(row) : null;
}
