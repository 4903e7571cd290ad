import Client_SQLite3 from 'knex/lib/dialects/sqlite3/index.js';
import Transaction_Sqlite from 'knex/lib/dialects/sqlite3/execution/sqlite-transaction.js';

import { finalizeDataVersion } from './dataVersion.ts';

/**
 * A transaction that takes SQLite's write lock when it begins (`BEGIN IMMEDIATE`), where knex
 * sends a plain `BEGIN`. A deferred transaction reads first and asks for the write lock at its
 * first write; when another connection (a second process) wrote in between, SQLite cannot wait
 * for it and answers SQLITE_BUSY at once, whatever `busy_timeout` says. Asking up front makes the
 * wait the ordinary one: `busy_timeout` applies, and writers take turns.
 *
 * Every transaction opened through knex is a write in Exhale (reads run outside one), so every
 * one begins immediate. Nested ones are savepoints and never call `begin`.
 */
class ImmediateTransaction extends Transaction_Sqlite {
  override begin(connection: unknown): Promise<unknown> {
    return this.query(connection, 'BEGIN IMMEDIATE;');
  }
}

/**
 * knex's sqlite3 client, with its transactions beginning immediate, and closing a connection
 * after finalizing the statement prepared on it (dataVersion.ts; SQLite refuses to close a
 * connection with one open). Pass it as knex's `client`.
 */
export class ImmediateSqliteClient extends Client_SQLite3 {
  override async destroyRawConnection(connection: object): Promise<void> {
    await finalizeDataVersion(connection);
    return super.destroyRawConnection(connection);
  }

  override transaction(container: unknown, config?: unknown, outerTx?: unknown): never {
    // knex's declarations type this as returning a Knex.Transaction; the object is knex's own
    // transaction class, as in the base client, which knex's builder then drives.
    return new ImmediateTransaction(this, container, config, outerTx) as never;
  }
}
