import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { cachingStatements, sqliteText } from './sqlite-statements';

interface Db {
  notes: { id: Generated<number>; body: string };
}

let dir: string;
let connection: SQLite.Database;
let prepared: string[];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-statements-'));
  connection = new SQLite(path.join(dir, 'test.sqlite'));
  prepared = [];
  const prepare = connection.prepare.bind(connection);
  jest.spyOn(connection, 'prepare').mockImplementation(((source: string) => {
    prepared.push(source);
    return prepare(source);
  }) as typeof connection.prepare);
});

afterEach(() => {
  if (connection.open) connection.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function kysely(capacity?: number): Kysely<Db> {
  return new Kysely<Db>({ dialect: new SqliteDialect({ database: cachingStatements(connection, capacity) }) });
}

describe('cachingStatements', () => {
  it('prepares a query once and gives the right rows each time it runs with other parameters', async () => {
    const db = kysely();
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    for (const body of ['a', 'b', 'c']) await db.insertInto('notes').values({ body }).execute();
    const byId = (id: number) => db.selectFrom('notes').select('body').where('id', '=', id).executeTakeFirst();

    expect(await byId(2)).toEqual({ body: 'b' });
    expect(await byId(3)).toEqual({ body: 'c' });
    expect(await byId(9)).toBeUndefined();
    expect(prepared.filter((s) => s.startsWith('insert'))).toHaveLength(1);
    expect(prepared.filter((s) => s.startsWith('select'))).toHaveLength(1);
  });

  it('reports the changes of a cached write each time', async () => {
    const db = kysely();
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    await db
      .insertInto('notes')
      .values([{ body: 'x' }, { body: 'x' }, { body: 'y' }])
      .execute();
    const rename = (from: string) =>
      db.updateTable('notes').set({ body: 'z' }).where('body', '=', from).executeTakeFirst();
    expect(Number((await rename('x')).numUpdatedRows)).toBe(2);
    expect(Number((await rename('y')).numUpdatedRows)).toBe(1);
    expect(Number((await rename('x')).numUpdatedRows)).toBe(0);
  });

  it('keeps the most recently used statements when full and prepares an evicted one again', async () => {
    const db = kysely(2);
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    const one = () => sql`select 1 as n`.execute(db);
    const two = () => sql`select 2 as n`.execute(db);
    const three = () => sql`select 3 as n`.execute(db);
    await one();
    await two();
    await one(); // one is now the most recent: adding three evicts two
    await three();
    prepared = [];
    await one();
    await three();
    expect(prepared).toEqual([]);
    expect((await two()).rows).toEqual([{ n: 2 }]);
    expect(prepared).toEqual(['select 2 as n']);
  });

  it('streams, and the same query runs from the cache after the stream ends', async () => {
    const db = kysely();
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    await db
      .insertInto('notes')
      .values([{ body: 'a' }, { body: 'b' }])
      .execute();
    const all = db.selectFrom('notes').select('body').orderBy('id');
    expect((await all.execute()).map((r) => r.body)).toEqual(['a', 'b']);
    const seen: string[] = [];
    for await (const row of all.stream()) seen.push(row.body);
    expect(seen).toEqual(['a', 'b']);
    expect((await all.execute()).map((r) => r.body)).toEqual(['a', 'b']);
  });

  it('still answers after the table it reads is dropped and made again', async () => {
    const db = kysely();
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    await db.insertInto('notes').values({ body: 'old' }).execute();
    const bodies = async () => (await db.selectFrom('notes').select('body').execute()).map((r) => r.body);
    expect(await bodies()).toEqual(['old']);
    await sql`drop table notes`.execute(db);
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    await db.insertInto('notes').values({ body: 'new' }).execute();
    expect(await bodies()).toEqual(['new']);
  });

  it('binds booleans as 1 and 0 in writes, filters, value lists and streams', async () => {
    const db = kysely();
    await sql`create table flags (id integer primary key, name text not null, enabled integer not null)`.execute(db);
    const flags = db as unknown as Kysely<{
      flags: { id: Generated<number>; name: string; enabled: boolean | number };
    }>;
    await flags
      .insertInto('flags')
      .values([
        { name: 'on', enabled: true },
        { name: 'off', enabled: false },
      ])
      .execute();
    expect(await flags.selectFrom('flags').select(['name', 'enabled']).orderBy('id').execute()).toEqual([
      { name: 'on', enabled: 1 },
      { name: 'off', enabled: 0 },
    ]);
    expect(
      (await flags.selectFrom('flags').select('name').where('enabled', '=', false).execute()).map((r) => r.name),
    ).toEqual(['off']);
    expect(
      (await flags.selectFrom('flags').select('name').where('enabled', 'in', [true]).execute()).map((r) => r.name),
    ).toEqual(['on']);
    await flags.updateTable('flags').set({ enabled: true }).where('name', '=', 'off').execute();
    const streamed: string[] = [];
    for await (const row of flags.selectFrom('flags').select('name').where('enabled', '=', true).orderBy('id').stream())
      streamed.push(row.name);
    expect(streamed).toEqual(['on', 'off']);
  });

  it('prepares `limit ?` as an expression, outside quoted text, and pages the same rows', async () => {
    expect(sqliteText('select "id" from "notes" order by "id" limit ? offset ?')).toBe(
      'select "id" from "notes" order by "id" limit (? + 0) offset ?',
    );
    expect(sqliteText(`select 'limit ?' as "limit ?" from (select 1 LIMIT ?) limit ?1`)).toBe(
      `select 'limit ?' as "limit ?" from (select 1 limit (? + 0)) limit ?1`,
    );
    const db = kysely();
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    for (const body of ['a', 'b', 'c', 'd']) await db.insertInto('notes').values({ body }).execute();
    const page = (limit: number, offset: number) =>
      db.selectFrom('notes').select('body').orderBy('id').limit(limit).offset(offset).execute();
    expect(await page(2, 0)).toEqual([{ body: 'a' }, { body: 'b' }]);
    expect(await page(3, 1)).toEqual([{ body: 'b' }, { body: 'c' }, { body: 'd' }]);
    expect(await page(-1, 3)).toEqual([{ body: 'd' }]);
    expect(prepared.filter((s) => s.startsWith('select'))).toEqual([
      'select "body" from "notes" order by "id" limit (? + 0) offset ?',
    ]);
  });

  it('gives rows with the keys, order and values better-sqlite3 gives', async () => {
    const db = kysely();
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    await db.insertInto('notes').values({ body: 'a' }).execute();
    const text = `select id, body, body as "__proto__", 1.5 as n, null as empty, id as body, count(*) over () as "count(*)" from notes`;
    const plain = new SQLite(path.join(dir, 'test.sqlite'));
    const expected = plain.prepare(text).all();
    plain.close();
    const rows = (await sql.raw(text).execute(db)).rows as Record<string, unknown>[];
    expect(rows).toEqual(expected);
    expect(rows.map((r) => Object.keys(r))).toEqual(expected.map((r) => Object.keys(r as object)));
    expect(rows[0]).toEqual(expect.objectContaining({ body: 1, n: 1.5, empty: null }));
  });

  it('reads the new columns of a kept `select *` after a column is added', async () => {
    const db = kysely();
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    await db.insertInto('notes').values({ body: 'a' }).execute();
    const all = () => db.selectFrom('notes').selectAll().execute();
    expect(await all()).toEqual([{ id: 1, body: 'a' }]);
    await sql`alter table notes add column tag text`.execute(db);
    expect(await all()).toEqual([{ id: 1, body: 'a', tag: null }]);
  });

  it('closes the connection', async () => {
    const db = kysely();
    await sql`select 1`.execute(db);
    await db.destroy();
    expect(connection.open).toBe(false);
  });
});
