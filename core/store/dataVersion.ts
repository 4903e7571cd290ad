/**
 * SQLite's `PRAGMA data_version` on the writer's connection, as one statement prepared once: the
 * read cache's freshness check (core/kernel/readCache.ts) runs it before every cached read, and
 * through knex each run was a prepare, a step and a finalize (three trips to SQLite's thread plus
 * knex's pool and runner: about 160 µs), where a prepared statement takes one trip (about 55 µs).
 *
 * It runs beside knex on the same connection, outside knex's pool, so it does not wait for a
 * write transaction to give the connection back (it still takes SQLite's own lock of the
 * connection for the moment it runs). Inside such a transaction it reads the same value: the
 * pragma moves only with commits of other connections, and none can commit while this one holds
 * the write lock. `generation` counts the connections attached: a connection knex replaced
 * counts data_version afresh, so its values compare only with its own (readCache.ts checks both).
 */

/** The part of node-sqlite3's Statement used here. */
interface PreparedStatement {
  all(callback: (err: Error | null, rows: Array<{ data_version?: number }>) => void): unknown;
  finalize(callback?: (err: Error | null) => void): unknown;
}

/** The part of node-sqlite3's Database (knex's raw connection) used here. */
export interface RawSqliteConnection {
  prepare(sql: string, callback?: (err: Error | null) => void): PreparedStatement;
}

/** The statement prepared on each raw connection, so closing the connection finalizes it first. */
const prepared = new WeakMap<object, { probe: DataVersionProbe; statement: PreparedStatement }>();

export class DataVersionProbe {
  private statement: PreparedStatement | null = null;
  /** How many writer connections were attached so far (see above). */
  generation = 0;
  /** The read sent and not answered yet. */
  private current: Promise<number> | null = null;
  /** The read to send once `current` is answered, shared by everyone who asks meanwhile. */
  private queued: Promise<number> | null = null;
  /** How many reads were sent (tests count the round trips a request costs). */
  reads = 0;

  /** Prepares the statement on the writer's new connection (knex's `afterCreate`). */
  attach(connection: RawSqliteConnection, done: (err: Error | null) => void): void {
    const statement = connection.prepare('PRAGMA data_version', (err) => {
      if (err) return done(err);
      prepared.set(connection, { probe: this, statement });
      this.statement = statement;
      this.generation += 1;
      done(null);
    });
  }

  /**
   * The writer connection's data_version, read after this call: a caller that asks while a read
   * is on its way may have asked after SQLite ran it, so it waits for the next read, which every
   * caller asking meanwhile shares (at most two reads in flight, whatever the load: one sent, one
   * waiting to be). Null while no connection is open (the caller reads it through knex).
   */
  read(): Promise<number> | null {
    const statement = this.statement;
    if (statement === null) return null;
    // Not sent yet (it is cleared in the step that sends it): joining it still reads after asking.
    if (this.queued !== null) return this.queued;
    if (this.current === null) return this.send(statement);
    const sendNext = (): Promise<number> => {
      if (this.queued === queued) this.queued = null;
      return this.statement === null ? Promise.reject(closed()) : this.send(this.statement);
    };
    const queued = this.current.then(sendNext, sendNext);
    this.queued = queued;
    return queued;
  }

  private send(statement: PreparedStatement): Promise<number> {
    this.reads += 1;
    const read = new Promise<number>((resolve, reject) => {
      statement.all((err, rows) =>
        err ? reject(err) : resolve(Number(rows[0]?.data_version ?? 0)),
      );
    });
    this.current = read;
    const settle = () => {
      if (this.current === read) this.current = null;
    };
    read.then(settle, settle);
    return read;
  }

  /** Forgets the statement of a connection being closed (see `finalizeDataVersion`). */
  detach(statement: PreparedStatement): void {
    if (this.statement === statement) this.statement = null;
  }
}

function closed(): Error {
  return new Error('the SQLite connection was closed');
}

/**
 * Finalizes the statement prepared on `connection`, if any: SQLite refuses to close a connection
 * that still has one (SQLITE_BUSY). The sqlite client calls it before every close.
 */
export async function finalizeDataVersion(connection: object): Promise<void> {
  const held = prepared.get(connection);
  if (!held) return;
  prepared.delete(connection);
  held.probe.detach(held.statement);
  await new Promise<void>((resolve) => held.statement.finalize(() => resolve()));
}
