import { sql, type Kysely } from 'kysely';

/**
 * Task tracker templates (issue 7): each practice holds templates; a template holds tasks (with one
 * level of subtasks, in file order), controls linked to tasks, and points of focus under controls.
 * Applying a template copies it into a project, so a template changed or deleted later never changes
 * a project. Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_trackers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('practice_id', 'text', (c) => c.notNull().references('practices.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('draft'))
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('task_trackers_status_check', sql`status in ('draft', 'published', 'retired')`)
    .execute();
  // Template names are unique within a practice, ignoring case.
  await db.schema
    .createIndex('task_trackers_practice_name_unique')
    .on('task_trackers')
    .unique()
    .columns(['practice_id'])
    .expression(sql`lower(name)`)
    .execute();
  await db.schema
    .createIndex('task_trackers_practice_status_idx')
    .on('task_trackers')
    .columns(['practice_id', 'status'])
    .execute();
  await db.schema.createIndex('task_trackers_created_by_idx').on('task_trackers').column('created_by').execute();

  await db.schema
    .createTable('tracker_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tracker_id', 'text', (c) => c.notNull().references('task_trackers.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('tracker_tasks.id').onDelete('cascade'))
    .addColumn('reference_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // File order: the order the tasks are listed and applied in.
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tracker_tasks_reference_unique')
    .on('tracker_tasks')
    .unique()
    .columns(['tracker_id'])
    .expression(sql`lower(reference_id)`)
    .execute();
  await db.schema
    .createIndex('tracker_tasks_tracker_position_idx')
    .on('tracker_tasks')
    .columns(['tracker_id', 'position'])
    .execute();
  await db.schema.createIndex('tracker_tasks_parent_id_idx').on('tracker_tasks').column('parent_id').execute();

  await db.schema
    .createTable('tracker_controls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tracker_id', 'text', (c) => c.notNull().references('task_trackers.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tracker_controls_name_unique')
    .on('tracker_controls')
    .unique()
    .columns(['tracker_id'])
    .expression(sql`lower(name)`)
    .execute();
  await db.schema
    .createIndex('tracker_controls_tracker_position_idx')
    .on('tracker_controls')
    .columns(['tracker_id', 'position'])
    .execute();

  await db.schema
    .createTable('tracker_control_tasks')
    .addColumn('control_id', 'text', (c) => c.notNull().references('tracker_controls.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull().references('tracker_tasks.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('tracker_control_tasks_pk', ['control_id', 'task_id'])
    .execute();
  await db.schema
    .createIndex('tracker_control_tasks_task_id_idx')
    .on('tracker_control_tasks')
    .column('task_id')
    .execute();

  await db.schema
    .createTable('tracker_points_of_focus')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tracker_id', 'text', (c) => c.notNull().references('task_trackers.id').onDelete('cascade'))
    .addColumn('control_id', 'text', (c) => c.notNull().references('tracker_controls.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tracker_points_of_focus_control_idx')
    .on('tracker_points_of_focus')
    .columns(['control_id', 'position'])
    .execute();
  await db.schema
    .createIndex('tracker_points_of_focus_tracker_idx')
    .on('tracker_points_of_focus')
    .column('tracker_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'tracker_points_of_focus',
    'tracker_control_tasks',
    'tracker_controls',
    'tracker_tasks',
    'task_trackers',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
