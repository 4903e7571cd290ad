// knex ships no declarations for its dialect modules; these name the two that sqliteClient.ts
// extends, with only the members it uses.
declare module 'knex/lib/dialects/sqlite3/index.js' {
  import type { Knex } from 'knex';

  /** knex's client for the `sqlite3` driver: `destroyRawConnection` closes one connection. */
  export default class Client_SQLite3 extends Knex.Client {
    destroyRawConnection(connection: object): Promise<void>;
  }
}

declare module 'knex/lib/dialects/sqlite3/execution/sqlite-transaction.js' {
  import type { Knex } from 'knex';

  /** knex's SQLite transaction: `begin` sends the statement that opens it. */
  export default class Transaction_Sqlite {
    constructor(client: Knex.Client, container: unknown, config?: unknown, outerTx?: unknown);
    begin(connection: unknown): Promise<unknown>;
    query(connection: unknown, sql: string): Promise<unknown>;
  }
}
