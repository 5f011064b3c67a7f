/**
 * The demo interview (issue 7): one upcoming interview on Acme SOC 2 Type II 2026, on a weekday a few
 * days after the seed, at 10:00 in New York. Its Lead Consultant organizes and interviews, its Client
 * Lead attends. Written straight to the tables: the seed sends no mail and calls no calendar service.
 */
import type { Kysely } from 'kysely';
import { instantToZoned, zonedToInstant } from '@portal/shared/core/interviews';
import { insertInterview } from './interviews';
import type { Database } from './schema';
import type { SeededProject } from './seed-files';

const DAY = 86_400_000;
const ZONE = 'America/New_York';
export const DEMO_INTERVIEW_PROJECT = 'Acme SOC 2 Type II 2026';

/** The first Monday-to-Friday at least `days` days after `now`, at `time` in `zone`. */
export function weekdayAfter(now: number, days: number, time: string, zone = ZONE): number {
  for (let offset = days; ; offset++) {
    const { date } = instantToZoned(now + offset * DAY, zone);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    const instant = weekday >= 1 && weekday <= 5 ? zonedToInstant(date, time, zone) : null;
    if (instant !== null) return instant;
  }
}

export async function seedInterviews(trx: Kysely<Database>, projects: SeededProject[], now: number): Promise<void> {
  const project = projects.find((p) => p.title === DEMO_INTERVIEW_PROJECT);
  if (!project?.staffId) return;
  const startsAt = weekdayAfter(now, 3, '10:00');
  await insertInterview(trx, {
    projectId: project.id,
    companyId: project.companyId,
    title: 'Logical access walkthrough (CC6.1 to CC6.3)',
    description:
      'Walk through user provisioning, quarterly access reviews and termination evidence. Please have the HR leavers report ready.',
    location: 'Video call',
    startsAt,
    endsAt: startsAt + 60 * 60_000,
    timeZone: ZONE,
    organizerId: project.staffId,
    interviewerIds: [project.staffId],
    attendeeIds: project.clientId ? [project.clientId] : [],
    onlineMeetingUrl: null,
    graphEventId: null,
    graphSubscriptionId: null,
    createdBy: project.staffId,
  });
}
