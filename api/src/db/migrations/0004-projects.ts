import { sql, type Kysely } from 'kysely';

/**
 * Projects (issue 5): the project's own fields, tasks with subtasks, assignees and comments, controls
 * linked to tasks, points of focus under controls, and the files table that the cancel rule counts
 * (the files issue adds folders, versions and storage to it). Frozen like 0001.
 *
 * Date-only values (start, due) are `YYYY-MM-DD` text: they sort and compare as dates on both databases.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('description', 'text').execute();
  await db.schema
    .alterTable('projects')
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('Assessment'))
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('practice_id', 'text', (c) => c.references('practices.id').onDelete('set null'))
    .execute();
  await db.schema.alterTable('projects').addColumn('start_date', 'text').execute();
  await db.schema.alterTable('projects').addColumn('due_date', 'text').execute();
  await db.schema.alterTable('projects').addColumn('created_by', 'text').execute();
  // Titles are unique ignoring case (the api checks first; this settles two requests that race).
  await db.schema
    .createIndex('projects_title_lower_unique')
    .on('projects')
    .unique()
    .expression(sql`lower(title)`)
    .execute();
  await db.schema
    .createIndex('projects_company_id_status_idx')
    .on('projects')
    .columns(['company_id', 'status'])
    .execute();
  await db.schema
    .createIndex('projects_company_id_title_idx')
    .on('projects')
    .columns(['company_id', 'title'])
    .execute();
  await db.schema.createIndex('projects_practice_id_idx').on('projects').column('practice_id').execute();
  // One holder per unique role and project (the api moves the role first; this settles two requests that race).
  await db.schema
    .createIndex('project_members_unique_role')
    .on('project_members')
    .unique()
    .columns(['project_id', 'role'])
    .where(sql.ref('role'), 'in', ['Lead Consultant', 'Client Lead', 'Project Manager'])
    .execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    // The project's company, kept on the task so company-wide lists and counts need no join.
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('tasks.id').onDelete('cascade'))
    .addColumn('reference_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('OPEN'))
    .addColumn('due_date', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addCheckConstraint(
      'tasks_status_check',
      sql`status in ('OPEN', 'IN_PROGRESS', 'INCOMPLETE', 'IN_REVIEW', 'COMPLETED', 'NOT_APPLICABLE')`,
    )
    .execute();
  // Task IDs are unique within a project or null (nulls never collide in a unique index).
  await db.schema
    .createIndex('tasks_project_id_reference_id_unique')
    .on('tasks')
    .unique()
    .columns(['project_id'])
    .expression(sql`lower(reference_id)`)
    .execute();
  // The project's task list (top-level tasks in creation order) and its page counts.
  await db.schema
    .createIndex('tasks_project_list_idx')
    .on('tasks')
    .columns(['project_id', 'parent_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('tasks_project_id_status_idx').on('tasks').columns(['project_id', 'status']).execute();
  await db.schema.createIndex('tasks_parent_id_idx').on('tasks').column('parent_id').execute();
  // The company-wide list walks these by keyset (newest first), without a status filter and with one.
  await db.schema
    .createIndex('tasks_company_keyset_idx')
    .on('tasks')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('tasks_company_id_status_idx')
    .on('tasks')
    .columns(['company_id', 'status', 'created_at', 'id'])
    .execute();
  // Deleting a user sets these to null: without an index each delete would scan the table.
  await db.schema.createIndex('tasks_created_by_idx').on('tasks').column('created_by').execute();

  await db.schema
    .createTable('task_assignees')
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('task_assignees_pk', ['task_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('task_assignees_user_id_idx')
    .on('task_assignees')
    .columns(['user_id', 'task_id'])
    .execute();

  await db.schema
    .createTable('task_comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('task_comments_task_id_idx')
    .on('task_comments')
    .columns(['task_id', 'created_at'])
    .execute();
  await db.schema.createIndex('task_comments_author_id_idx').on('task_comments').column('author_id').execute();

  await db.schema
    .createTable('controls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Control IDs are unique within a project, ignoring case.
  await db.schema
    .createIndex('controls_project_id_name_unique')
    .on('controls')
    .unique()
    .columns(['project_id'])
    .expression(sql`lower(name)`)
    .execute();
  await db.schema.createIndex('controls_project_id_name_idx').on('controls').columns(['project_id', 'name']).execute();

  await db.schema
    .createTable('control_tasks')
    .addColumn('control_id', 'text', (c) => c.notNull().references('controls.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('control_tasks_pk', ['control_id', 'task_id'])
    .execute();
  await db.schema.createIndex('control_tasks_task_id_idx').on('control_tasks').column('task_id').execute();

  await db.schema
    .createTable('points_of_focus')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('control_id', 'text', (c) => c.notNull().references('controls.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('points_of_focus_project_idx')
    .on('points_of_focus')
    .columns(['project_id', 'control_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('points_of_focus_control_id_idx')
    .on('points_of_focus')
    .columns(['control_id', 'created_at'])
    .execute();

  // A project's files. The files issue adds folders, versions and storage; the cancel rule counts these rows.
  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('uploaded_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('files_project_id_idx').on('files').column('project_id').execute();
  await db.schema.createIndex('files_uploaded_by_idx').on('files').column('uploaded_by').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'files',
    'points_of_focus',
    'control_tasks',
    'controls',
    'task_comments',
    'task_assignees',
    'tasks',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  for (const index of [
    'project_members_unique_role',
    'projects_practice_id_idx',
    'projects_company_id_title_idx',
    'projects_company_id_status_idx',
    'projects_title_lower_unique',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  for (const column of ['created_by', 'due_date', 'start_date', 'practice_id', 'type', 'description']) {
    await db.schema.alterTable('projects').dropColumn(column).execute();
  }
}
