import { randomUUID } from 'node:crypto';
import { Migrator, sql, type Migration } from 'kysely';
import * as m0001 from './migrations/0001-foundation';
import * as m0002 from './migrations/0002-identity';
import * as m0003 from './migrations/0003-settings';
import * as m0004 from './migrations/0004-projects';
import * as m0005 from './migrations/0005-files';
import { FolderTree } from './folders';
import { createTestDatabase, type TestDatabase } from '../test/app';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

describe('migration 0005-files', () => {
  it('gives every existing project its root and puts existing files in it, with their company', async () => {
    const migrations: Record<string, Migration> = {
      '0001-foundation': m0001,
      '0002-identity': m0002,
      '0003-settings': m0003,
      '0004-projects': m0004,
    };
    // On PostgreSQL the bookkeeping tables live in the test's own schema (as migrate.ts pins them).
    const migrationTableSchema =
      database.dialect === 'postgres'
        ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]?.schema
        : undefined;
    const migrator = (all: Record<string, Migration>) =>
      new Migrator({ db: database.db, provider: { getMigrations: async () => all }, migrationTableSchema });
    expect((await migrator(migrations).migrateToLatest()).error).toBeUndefined();
    const now = new Date().toISOString();
    const companyId = randomUUID();
    await database.db
      .insertInto('companies')
      .values({ id: companyId, name: 'Backfill Co', logo: null, created_at: now, updated_at: now })
      .execute();
    const projectIds = [randomUUID(), randomUUID()];
    for (const [i, id] of projectIds.entries()) {
      await database.db
        .insertInto('projects')
        .values({
          id,
          company_id: companyId,
          title: `Backfill ${i}`,
          status: 'active',
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    const fileId = randomUUID();
    // the 0004 columns only
    await database.db
      .insertInto('files')
      .values({
        id: fileId,
        project_id: projectIds[0],
        name: 'old.pdf',
        content_type: 'application/pdf',
        size: 3,
        uploaded_by: null,
        created_at: now,
      } as never)
      .execute();

    expect((await migrator({ ...migrations, '0005-files': m0005 }).migrateToLatest()).error).toBeUndefined();
    const roots = await database.db
      .selectFrom('folders')
      .select(['id', 'project_id', 'name'])
      .where('parent_id', 'is', null)
      .execute();
    expect(roots.map((r) => r.project_id).sort()).toEqual([...projectIds].sort());
    expect(new Set(roots.map((r) => r.name))).toEqual(new Set(['Files']));
    const file = await database.db
      .selectFrom('files')
      .select(['folder_id', 'company_id', 'updated_at'])
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    expect(file.folder_id).toBe(roots.find((r) => r.project_id === projectIds[0])!.id);
    expect(file.company_id).toBe(companyId);
    expect(file.updated_at).not.toBeNull();
    // one root per project, enforced by the database
    await expect(
      database.db
        .insertInto('folders')
        .values({
          id: randomUUID(),
          project_id: projectIds[0],
          parent_id: null,
          name: 'Second',
          created_by: null,
          created_at: now,
        })
        .execute(),
    ).rejects.toHaveProperty('message', expect.stringMatching(/unique/i));
  });
});

describe('FolderTree', () => {
  const tree = new FolderTree([
    { id: 'root', parent_id: null },
    { id: 'a', parent_id: 'root' },
    { id: 'b', parent_id: 'a' },
    { id: 'c', parent_id: 'b' },
    { id: 'd', parent_id: 'root' },
  ]);

  it('knows depths, subtrees and heights', () => {
    expect(['root', 'a', 'b', 'c', 'd'].map((id) => tree.depth(id))).toEqual([0, 1, 2, 3, 1]);
    expect(tree.subtree('a').sort()).toEqual(['a', 'b', 'c']);
    expect([tree.height('root'), tree.height('a'), tree.height('c')]).toEqual([3, 2, 0]);
  });

  it('ends its walks on a loop in the parent links', () => {
    const loop = new FolderTree([
      { id: 'root', parent_id: null },
      { id: 'a', parent_id: 'b' },
      { id: 'b', parent_id: 'a' },
      { id: 'c', parent_id: 'a' },
    ]);
    expect(loop.depth('a')).toBe(1);
    expect(loop.depth('c')).toBe(2);
    expect(loop.subtree('a').sort()).toEqual(['a', 'b', 'c']);
    expect(loop.height('a')).toBe(1);
  });
});
