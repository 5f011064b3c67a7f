/** openDatabase: what the api relies on from its database connections beyond running queries. */
import { sql } from 'kysely';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../test/app';
import { openDatabase } from './database';

describe('openDatabase on PostgreSQL', () => {
  // A PostgreSQL restart cuts every connection, including one a request holds at that moment.
  (TEST_DATABASE_URL ? it : it.skip)('survives the connection of a checked-out client being cut, and goes on with a new one', async () => {
    const database = openDatabase({ databaseUrl: TEST_DATABASE_URL! });
    try {
      const work = database.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        const admin = new pg.Client({ connectionString: TEST_DATABASE_URL! });
        await admin.connect();
        await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
        await admin.end();
        // the cut reaches this client while it is checked out and idle: its socket ends
        await new Promise((resolve) => setTimeout(resolve, 300));
        await sql`select 1`.execute(trx);
      });
      await expect(work).rejects.toThrow();
      const { rows } = await sql<{ n: number }>`select 1 as n`.execute(database.db);
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      await database.close();
    }
  });
});
