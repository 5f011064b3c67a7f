import { sql, type Kysely } from 'kysely';

/**
 * Interviews of a project (issue 7): when (an instant, with the time zone it was scheduled in), who
 * organizes it (a Lead Consultant or Consultant of the project), who interviews (staff) and who
 * attends, its status, and the iCalendar sequence that orders its invitations. The Microsoft Graph
 * ids are set only when Graph meetings are configured. Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('interviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('location', 'text')
    .addColumn('starts_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ends_at', 'timestamptz', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('organizer_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('scheduled'))
    // RFC 5545 SEQUENCE: raised on every reschedule and on cancel, so calendars take the latest.
    .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('online_meeting_url', 'text')
    .addColumn('graph_event_id', 'text')
    .addColumn('graph_subscription_id', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('canceled_at', 'timestamptz')
    .addCheckConstraint('interviews_status_check', sql`status in ('scheduled', 'canceled')`)
    .execute();
  await db.schema
    .createIndex('interviews_project_starts_idx')
    .on('interviews')
    .columns(['project_id', 'starts_at', 'id'])
    .execute();
  await db.schema
    .createIndex('interviews_company_starts_idx')
    .on('interviews')
    .columns(['company_id', 'starts_at'])
    .execute();
  await db.schema.createIndex('interviews_organizer_id_idx').on('interviews').column('organizer_id').execute();
  await db.schema.createIndex('interviews_created_by_idx').on('interviews').column('created_by').execute();

  await db.schema
    .createTable('interview_participants')
    .addColumn('interview_id', 'text', (c) => c.notNull().references('interviews.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('interview_participants_pk', ['interview_id', 'user_id'])
    .addCheckConstraint('interview_participants_role_check', sql`role in ('interviewer', 'attendee')`)
    .execute();
  await db.schema
    .createIndex('interview_participants_user_id_idx')
    .on('interview_participants')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['interview_participants', 'interviews']) await db.schema.dropTable(table).execute();
}
