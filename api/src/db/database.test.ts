/** openDatabase: what the api relies on from its database connections beyond running queries. */
import { sql } from 'kysely';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../test/app';
import { openDatabase } from './database';
import { preparedQuery, statementNames } from './prepared';

describe('openDatabase on PostgreSQL', () => {
  // A PostgreSQL restart cuts every connection, including one a request holds at that moment.
  (TEST_DATABASE_URL ? it : it.skip)(
    'survives the connection of a checked-out client being cut, and goes on with a new one',
    async () => {
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
    },
  );

  (TEST_DATABASE_URL ? it : it.skip)(
    'reads a timestamptz as ISO text, in any session time zone, and writes ISO text back unchanged',
    async () => {
      const database = openDatabase({ databaseUrl: TEST_DATABASE_URL! });
      try {
        const stored = '2026-11-23T08:05:01.007Z';
        await database.db.transaction().execute(async (trx) => {
          const read = () =>
            sql<{ at: unknown; micro: unknown; none: unknown }>`
            select cast(${stored} as timestamptz) as at, cast('2026-11-23 08:05:01.999999+00' as timestamptz) as micro,
              cast(null as timestamptz) as none`.execute(trx);
          expect((await read()).rows).toEqual([{ at: stored, micro: '2026-11-23T08:05:01.999Z', none: null }]);
          // a server or role set to another zone writes another offset: the same instants all the same
          await sql`set local time zone 'America/St_Johns'`.execute(trx);
          expect((await read()).rows).toEqual([{ at: stored, micro: '2026-11-23T08:05:01.999Z', none: null }]);
        });
      } finally {
        await database.close();
      }
    },
  );

  (TEST_DATABASE_URL ? it : it.skip)(
    'prepares the texts of prepared queries by name on each connection, and runs other queries unnamed',
    async () => {
      const database = openDatabase({ databaseUrl: TEST_DATABASE_URL! });
      const answer = preparedQuery((db, value: string) => db.selectNoFrom(sql<string>`cast(${value} as text)`.as('v')));
      try {
        const name = await database.db.transaction().execute(async (trx) => {
          expect(await answer(trx, 'first')).toEqual([{ v: 'first' }]);
          expect(await answer(trx, 'second')).toEqual([{ v: 'second' }]);
          const text = [...statementNames].find(([sqlText]) => sqlText.includes('as "v"'));
          expect(text).toBeDefined();
          await sql`select 1 as unnamed`.execute(trx);
          // this connection's prepared statements: the prepared query's, once, and no other
          const { rows } = await sql<{
            name: string;
            statement: string;
          }>`select name, statement from pg_prepared_statements`.execute(trx);
          expect(rows).toEqual([{ name: text![1], statement: text![0] }]);
          return text![1];
        });
        // from any connection of the pool, again and again
        const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => answer(database.db, `value ${i}`)));
        expect(answers.map((rows) => rows[0].v)).toEqual(Array.from({ length: 12 }, (_, i) => `value ${i}`));
        expect(name).toMatch(/^prepared_[0-9a-f]{24}$/);
      } finally {
        await database.close();
      }
    },
  );

  (TEST_DATABASE_URL ? it : it.skip)(
    'plans a query planned once a single time per connection, one planned per call on every call, and compiles none',
    async () => {
      const database = openDatabase({ databaseUrl: TEST_DATABASE_URL! });
      const once = preparedQuery((db, value: string) =>
        db.selectNoFrom(sql<string>`cast(${value} as text)`.as('planned_once')),
      );
      const perCall = preparedQuery(
        (db, value: string) => db.selectNoFrom(sql<string>`cast(${value} as text)`.as('planned_per_call')),
        'per call',
      );
      try {
        await database.db.transaction().execute(async (trx) => {
          for (const value of ['a', 'b', 'c']) {
            expect(await once(trx, value)).toEqual([{ planned_once: value }]);
            expect(await perCall(trx, value)).toEqual([{ planned_per_call: value }]);
          }
          const { rows } = await sql<{
            statement: string;
            generic_plans: string | number;
            custom_plans: string | number;
          }>`
          select statement, generic_plans, custom_plans from pg_prepared_statements`.execute(trx);
          // the query planned once: prepared by name, three runs of its one generic plan
          expect(
            rows.map((r) => ({ ...r, generic_plans: Number(r.generic_plans), custom_plans: Number(r.custom_plans) })),
          ).toEqual([{ statement: expect.stringContaining('planned_once'), generic_plans: 3, custom_plans: 0 }]);
          const settings = await sql<{ plan_cache_mode: string; jit: string }>`
          select current_setting('plan_cache_mode') as plan_cache_mode, current_setting('jit') as jit`.execute(trx);
          expect(settings.rows).toEqual([{ plan_cache_mode: 'force_generic_plan', jit: 'off' }]);
        });
      } finally {
        await database.close();
      }
    },
  );
});
