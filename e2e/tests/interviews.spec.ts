/**
 * Interviews (issue 7), in a real browser against the real server: the Lead Consultant of Acme's SOC 2
 * project finds a Saturday, a past day and a day 63 days out not offered (the api refuses them too); then
 * schedules a valid interview and its iCalendar invitation is found in the mail outbox. The browser runs
 * in New York time; the dates are computed there from today, so the test never goes stale.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiAs, expect, openAs, test } from './fixtures';

const ZONE = 'America/New_York';
test.use({ timezoneId: ZONE });
test.describe.configure({ mode: 'serial' });

const TITLE = `E2E walkthrough ${Date.now().toString(36)}`;
let consultantApi: APIRequestContext;
let projectId = '';

const toast = (page: Page, text: string | RegExp) => page.locator('.ant-notification-notice').filter({ hasText: text });

/** Today's date in the zone, plus `days`, as the parts of a calendar day. */
function zonedDay(days: number): { y: number; m: number; d: number; weekday: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date());
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const date = new Date(Date.UTC(get('year'), get('month') - 1, get('day') + days));
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate(), weekday: date.getUTCDay() };
}

/** The first day at least `from` days ahead that matches `want`, as M/D/YYYY. */
function pickDay(from: number, want: (weekday: number) => boolean, step = 1): string {
  for (let i = from; Math.abs(i - from) < 14; i += step) {
    const day = zonedDay(i);
    if (want(day.weekday)) return `${day.m}/${day.d}/${day.y}`;
  }
  throw new Error('no such day');
}
const isWeekday = (w: number) => w >= 1 && w <= 5;

async function typeDate(dialog: Locator, value: string) {
  const input = dialog.getByLabel('Date', { exact: true });
  await input.click();
  await input.fill(value);
  await input.press('Enter');
}

async function typeTime(dialog: Locator, value: string) {
  const input = dialog.getByLabel('Time', { exact: true });
  await input.click();
  await input.fill(value);
  await input.press('Enter');
}

/** The text/calendar part of a raw .eml message, decoded. */
function calendarPart(eml: string): string | null {
  const parts = eml.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const part of parts) {
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
    if (!/content-type:\s*text\/calendar/i.test(head)) continue;
    const body = rest.join('\n\n');
    if (/content-transfer-encoding:\s*base64/i.test(head))
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
      return body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
    return body;
  }
  return null;
}

test.beforeAll(async () => {
  consultantApi = await apiAs('consultant@demo.test');
  const companies = (await (await consultantApi.get('/api/v1/companies?ignorePagination=true')).json()).results as {
    id: string;
    name: string;
  }[];
  const acme = companies.find((c) => c.name === 'Acme Corp')!;
  const list = await (
    await consultantApi.get(`/api/v1/companies/${acme.id}/projects?search=SOC%202%20Type%20II%202026`)
  ).json();
  projectId = list.results[0].id;
});

test('the schedule form offers no Saturday, past day or day 63 days out, and the api refuses them too', async ({
  page,
}) => {
  await openAs(page, 'consultant@demo.test', `/v2/projects/${projectId}?view=interviews`);
  await expect(page.getByRole('tab', { name: 'Interviews', selected: true })).toBeVisible();
  await page.getByRole('button', { name: 'Schedule interview' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Schedule interview' });
  await dialog.getByLabel('Title').fill(TITLE);
  await typeTime(dialog, '10:00');

  // A Saturday, a past day and a day 63 days out are greyed out in the calendar: typed, they are not
  // taken, and Schedule sends nothing.
  for (const refused of [pickDay(1, (w) => w === 6), pickDay(-1, isWeekday, -1), pickDay(63, isWeekday)]) {
    await typeDate(dialog, refused);
    await expect(dialog.getByLabel('Date', { exact: true })).not.toHaveValue(refused);
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await expect(dialog).toBeVisible();
  }

  // nothing was stored
  const list = await (await consultantApi.get(`/api/v1/projects/${projectId}/interviews?when=all&pageSize=200`)).json();
  expect(list.results.some((i: { title: string }) => i.title === TITLE)).toBe(false);

  // the server holds the same rules for a caller that skips the form
  const people = await (await consultantApi.get(`/api/v1/projects/${projectId}/interview-people`)).json();
  const me = people.organizers.find((p: { email: string }) => p.email === 'consultant@demo.test');
  const [m, d, y] = pickDay(1, (w) => w === 6).split('/');
  const saturday = `${y}-${m!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
  const res = await consultantApi.post(`/api/v1/projects/${projectId}/interviews`, {
    data: { title: TITLE, date: saturday, time: '10:00', timeZone: ZONE, organizerId: me.id, interviewerIds: [me.id] },
  });
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({ code: 'interview_day_is_invalid' });
});

test('a valid interview is scheduled and its invitation is in the outbox', async ({ page }) => {
  const outbox = path.join(process.env.E2E_DATA_DIR!, 'outbox');
  const before = new Set(fs.existsSync(outbox) ? fs.readdirSync(outbox) : []);

  await openAs(page, 'consultant@demo.test', `/v2/projects/${projectId}?view=interviews`);
  await page.getByRole('button', { name: 'Schedule interview' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Schedule interview' });
  await dialog.getByLabel('Title').fill(TITLE);
  await typeDate(dialog, pickDay(7, isWeekday));
  await typeTime(dialog, '10:00');
  await dialog.getByLabel('Interviewers', { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible')
    .getByText(/Daniel Reyes/)
    .first()
    .click();
  await page.keyboard.press('Escape');
  await dialog.getByLabel('Attendees', { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible')
    .getByText(/lead@acme\.test|Client Lead/)
    .first()
    .click();
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(toast(page, 'Interview scheduled')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: TITLE })).toBeVisible();

  const list = await (
    await consultantApi.get(`/api/v1/projects/${projectId}/interviews?when=upcoming&pageSize=200`)
  ).json();
  const interview = list.results.find((i: { title: string }) => i.title === TITLE);
  expect(interview).toMatchObject({ status: 'scheduled', timeZone: ZONE, time: '10:00' });

  await expect
    .poll(() => fs.readdirSync(outbox).filter((f) => !before.has(f) && f.endsWith('.eml')).length)
    .toBeGreaterThanOrEqual(2);
  const invitations = fs
    .readdirSync(outbox)
    .filter((f) => !before.has(f) && f.endsWith('.eml'))
    .map((f) => calendarPart(fs.readFileSync(path.join(outbox, f), 'utf8')))
    .filter((ics): ics is string => ics !== null && ics.includes(interview.id));
  expect(invitations.length).toBeGreaterThanOrEqual(2);
  for (const ics of invitations) {
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics.replace(/\r?\n[ \t]/g, '')).toContain(`SUMMARY:${TITLE}`);
  }
});
