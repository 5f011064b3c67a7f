import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * How many top-level tasks each project has, kept by the database itself: the project task list shows
 * the total on every page, and counting it took 3 to 4 ms of a 6 ms request at 40,000 tasks. Triggers
 * keep `project_task_counts` exact in the same transaction as the write, whichever code writes: a row
 * per project from its insert to its delete; tasks inserted, deleted (also by a cascade) or moved
 * (project_id or parent_id changed) adjust it. Counts only ever change by UPDATE, so a cascade that
 * deletes a project's tasks after the project's row (and its count row) is gone changes nothing.
 * No foreign key to projects: the count row must not be in the way of that cascade.
 * PostgreSQL uses statement-level triggers with transition tables, so a bulk insert updates each
 * count once; SQLite has row-level triggers only. Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('project_task_counts')
    .addColumn('project_id', 'text', (c) => c.primaryKey())
    .addColumn('top_level', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    insert into project_task_counts (project_id, top_level)
    select p.id, (select count(*) from tasks t where t.project_id = p.id and t.parent_id is null) from projects p
  `.execute(db);

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`
      create function project_task_counts_add() returns trigger language plpgsql as $$
      begin
        insert into project_task_counts (project_id, top_level) values (new.id, 0) on conflict (project_id) do nothing;
        return null;
      end $$
    `.execute(db);
    await sql`
      create function project_task_counts_remove() returns trigger language plpgsql as $$
      begin
        delete from project_task_counts where project_id = old.id;
        return null;
      end $$
    `.execute(db);
    await sql`create trigger projects_task_count_add after insert on projects for each row execute function project_task_counts_add()`.execute(
      db,
    );
    await sql`create trigger projects_task_count_remove after delete on projects for each row execute function project_task_counts_remove()`.execute(
      db,
    );
    // Each function applies the net change per project of the statement's rows.
    await sql`
      create function tasks_count_inserted() returns trigger language plpgsql as $$
      begin
        update project_task_counts c set top_level = c.top_level + d.n
        from (select project_id, count(*) as n from added where parent_id is null group by project_id) d
        where c.project_id = d.project_id;
        return null;
      end $$
    `.execute(db);
    await sql`
      create function tasks_count_deleted() returns trigger language plpgsql as $$
      begin
        update project_task_counts c set top_level = c.top_level - d.n
        from (select project_id, count(*) as n from removed where parent_id is null group by project_id) d
        where c.project_id = d.project_id;
        return null;
      end $$
    `.execute(db);
    await sql`
      create function tasks_count_updated() returns trigger language plpgsql as $$
      begin
        update project_task_counts c set top_level = c.top_level + d.n
        from (
          select project_id, sum(n) as n from (
            select project_id, -1 as n from removed where parent_id is null
            union all
            select project_id, 1 as n from added where parent_id is null
          ) moves group by project_id
        ) d
        where c.project_id = d.project_id and d.n <> 0;
        return null;
      end $$
    `.execute(db);
    await sql`create trigger tasks_count_insert after insert on tasks referencing new table as added for each statement execute function tasks_count_inserted()`.execute(
      db,
    );
    await sql`create trigger tasks_count_delete after delete on tasks referencing old table as removed for each statement execute function tasks_count_deleted()`.execute(
      db,
    );
    await sql`
      create trigger tasks_count_update after update on tasks referencing old table as removed new table as added
      for each statement execute function tasks_count_updated()
    `.execute(db);
    return;
  }

  await sql`
    create trigger projects_task_count_add after insert on projects begin
      insert or ignore into project_task_counts (project_id, top_level) values (new.id, 0);
    end
  `.execute(db);
  await sql`
    create trigger projects_task_count_remove after delete on projects begin
      delete from project_task_counts where project_id = old.id;
    end
  `.execute(db);
  await sql`
    create trigger tasks_count_insert after insert on tasks when new.parent_id is null begin
      update project_task_counts set top_level = top_level + 1 where project_id = new.project_id;
    end
  `.execute(db);
  await sql`
    create trigger tasks_count_delete after delete on tasks when old.parent_id is null begin
      update project_task_counts set top_level = top_level - 1 where project_id = old.project_id;
    end
  `.execute(db);
  await sql`
    create trigger tasks_count_update after update of project_id, parent_id on tasks
    when old.project_id <> new.project_id or (old.parent_id is null) <> (new.parent_id is null) begin
      update project_task_counts set top_level = top_level - 1 where project_id = old.project_id and old.parent_id is null;
      update project_task_counts set top_level = top_level + 1 where project_id = new.project_id and new.parent_id is null;
    end
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const trigger of ['tasks_count_insert', 'tasks_count_delete', 'tasks_count_update'])
      await sql`drop trigger ${sql.id(trigger)} on tasks`.execute(db);
    for (const trigger of ['projects_task_count_add', 'projects_task_count_remove'])
      await sql`drop trigger ${sql.id(trigger)} on projects`.execute(db);
    for (const fn of [
      'tasks_count_inserted',
      'tasks_count_deleted',
      'tasks_count_updated',
      'project_task_counts_add',
      'project_task_counts_remove',
    ]) {
      await sql`drop function ${sql.id(fn)}()`.execute(db);
    }
  } else {
    for (const trigger of [
      'tasks_count_insert',
      'tasks_count_delete',
      'tasks_count_update',
      'projects_task_count_add',
      'projects_task_count_remove',
    ]) {
      await sql`drop trigger ${sql.id(trigger)}`.execute(db);
    }
  }
  await db.schema.dropTable('project_task_counts').execute();
}
