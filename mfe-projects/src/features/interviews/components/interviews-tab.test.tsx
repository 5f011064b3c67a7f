import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Interview, InterviewCreate } from '@portal/shared/core/interviews';
import type { Project } from '@portal/shared/core/projects';
import type { User } from '@portal/shared/core/schemas';
import { formatDateTime } from '@portal/shared/core/dates';
import { toast$, type ToastMessage } from '@portal/shared/web/events';
import { renderWithProviders } from '@portal/shared/testing';
import { Route, Routes } from '@portal/shared/web/router';
import {
  AddressQuery,
  address,
  apiError,
  button,
  findDialog,
  findHeading,
  findOption,
  isClosed,
  makeProject,
  session,
  setupTestServer,
  setupUser,
} from '../../projects/testing/fixtures';
import { ProjectDetailPage } from '../../projects/components/project-detail-page';
import { ann, bo, dan, isSaturday, isWeekday, makeInterview, pickDay, sam, ZONE } from '../testing/fixtures';

let upcoming: Interview[];
let past: Interview[];
let listRequests: string[];
let posted: unknown[];
let patched: unknown[];
let canceled: { id: string; body: unknown }[];
let replies: { status: number; body: unknown }[];
let listFails: boolean;
let project: Project;
/** Holds the list's replies while set (resolved by the test). */
let listGate: Promise<void> | null;

const people = { organizers: [sam], interviewers: [sam, dan], attendees: [ann, bo] };

const server = setupTestServer(
  http.get('*/api/v1/projects/p1', () => HttpResponse.json(project)),
  http.get(
    '*/api/v1/projects/p1/interviews/:id/calendar.ics',
    ({ params }) =>
      new HttpResponse('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', {
        headers: {
          'Content-Type': 'text/calendar',
          'Content-Disposition': `attachment; filename="invite-${String(params.id)}.ics"`,
        },
      }),
  ),
  http.get('*/api/v1/projects/p1/interviews', async ({ request }) => {
    const url = new URL(request.url);
    listRequests.push(decodeURIComponent(url.search));
    if (listGate) await listGate;
    if (listFails) return HttpResponse.json(apiError(500, 'internal_error', 'Something broke').body, { status: 500 });
    const when = url.searchParams.get('when');
    const items = when === 'past' ? past : when === 'canceled' ? [] : upcoming;
    const n = Number(url.searchParams.get('page') ?? 1);
    const size = Number(url.searchParams.get('pageSize') ?? 10);
    return HttpResponse.json({
      results: items.slice((n - 1) * size, n * size),
      total: items.length,
      page: n,
      pageSize: size,
    });
  }),
  // the Tasks tab, open before the Interviews tab is chosen
  http.get('*/api/v1/projects/p1/tasks', () => HttpResponse.json({ results: [], total: 0, page: 1, pageSize: 25 })),
  http.get('*/api/v1/projects/p1/task-assignees', () => HttpResponse.json({ results: [] })),
  http.get('*/api/v1/projects/p1/interview-people', () => HttpResponse.json(people)),
  http.post('*/api/v1/projects/p1/interviews', async ({ request }) => {
    const body = (await request.json()) as InterviewCreate;
    posted.push(body);
    const reply = replies.shift();
    if (reply) return HttpResponse.json(reply.body as object, { status: reply.status });
    const made = makeInterview(99, {
      title: body.title,
      date: body.date,
      time: body.time,
      invitations: { sent: 3, failed: 0 },
    });
    upcoming = [...upcoming, made];
    return HttpResponse.json(made, { status: 201 });
  }),
  http.patch('*/api/v1/projects/p1/interviews/:id', async ({ request, params }) => {
    const body = (await request.json()) as Partial<Interview>;
    patched.push(body);
    const reply = replies.shift();
    if (reply) return HttpResponse.json(reply.body as object, { status: reply.status });
    const changed = { ...upcoming.find((i) => i.id === params.id)!, ...body };
    upcoming = upcoming.map((i) => (i.id === params.id ? changed : i));
    return HttpResponse.json({ ...changed, invitations: { sent: 2, failed: 1 } });
  }),
  http.post('*/api/v1/projects/p1/interviews/:id/cancel', async ({ request, params }) => {
    canceled.push({ id: String(params.id), body: await request.json() });
    const reply = replies.shift();
    if (reply) return HttpResponse.json(reply.body as object, { status: reply.status });
    const gone = upcoming.find((i) => i.id === params.id)!;
    upcoming = upcoming.filter((i) => i.id !== params.id);
    return HttpResponse.json({ ...gone, status: 'canceled' });
  }),
);

// jsdom computes a style by matching every rule antd injects (thousands, in development) against the
// element, and antd's popups, dialogs and form items ask for it on every ancestor: seconds per click in
// a dialog. Nothing these tests check depends on computed styles (visibility is read from the dialogs'
// own inline styles), so they get an empty declaration at once.
beforeAll(() => {
  jest.spyOn(window, 'getComputedStyle').mockImplementation(() => document.createElement('div').style);
});

let ue = setupUser();
let toasts: ToastMessage[];
let unsubscribe: () => void;
beforeEach(() => {
  ue = setupUser();
  upcoming = [
    makeInterview(1, {
      title: 'Access review',
      location: 'Room 4',
      interviewers: [dan, sam],
      attendees: [ann, bo, dan],
      onlineMeetingUrl: 'https://meet.example.com/j/1',
    }),
    makeInterview(2, {
      title: 'Change management',
      startsAt: '2099-12-01T19:30:00.000Z',
      timeZone: 'America/Los_Angeles',
      date: '2099-12-01',
      time: '11:30',
      durationMinutes: 90,
    }),
  ];
  past = [];
  listRequests = [];
  posted = [];
  patched = [];
  canceled = [];
  replies = [];
  listFails = false;
  listGate = null;
  project = makeProject();
  toasts = [];
  const sub = toast$.subscribe((t) => toasts.push(t));
  unsubscribe = () => sub.unsubscribe();
});
afterEach(() => unsubscribe());

const client: User = {
  ...(session.user as User),
  id: 'u2',
  isTevora: false,
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@acme.test',
};

const renderAt = (route: string, who = session) =>
  renderWithProviders(
    <Routes>
      <Route
        path="/v2/projects/:projectId"
        element={
          <>
            <ProjectDetailPage />
            <AddressQuery />
          </>
        }
      />
    </Routes>,
    { route, session: who },
  );

const tab = (name: string) =>
  screen.getByText(name, { selector: '[role="tab"], [role="tab"] *' }).closest('[role="tab"]') as HTMLElement;
const row = async (title: string) => (await screen.findByText(title)).closest('tr') as HTMLElement;
const summaries = () => toasts.map((t) => `${t.severity}: ${t.summary}`);

/** Types into an antd date or time picker and presses Enter, as a keyboard user does. */
async function typeInPicker(input: HTMLElement, text: string) {
  await ue.click(input);
  await ue.clear(input);
  await ue.type(input, `${text}{Enter}`);
}

async function chooseOption(input: HTMLElement, search: string, option: string) {
  await ue.click(input);
  if (search) await ue.type(input, search);
  await ue.click(await findOption(option));
}

describe('the Interviews tab', () => {
  it('is a tab of the project in the address, lists the interviews where they take place, and filters and pages through the address', async () => {
    upcoming = [...upcoming, ...Array.from({ length: 10 }, (_, i) => makeInterview(i + 3))];
    renderAt('/v2/projects/p1?tasksPage=2');
    await findHeading('SOC 2 Type II 2026');
    // choosing the tab names it in the address, keeping the other tabs' pages (the tasks list is not asked for here)
    await ue.click(tab('Interviews'));
    await waitFor(() => expect(address()).toBe('?tasksPage=2&view=interviews'));
    const first = await row('Access review');
    expect(tab('Interviews')).toHaveAttribute('aria-selected', 'true');
    expect(listRequests).toEqual(['?page=1&pageSize=10&when=upcoming']);

    expect(first).toHaveTextContent('Room 4');
    expect(first).toHaveTextContent('10:00AM 11/30/2099 America/New_York');
    expect(first).toHaveTextContent('1 h');
    expect(first).toHaveTextContent('Sam Staff');
    expect(first).toHaveTextContent('Daniel Reyes, Sam Staff');
    expect(first).toHaveTextContent('Ann Lee, Bo Lee +1');
    expect(within(first).getByText('Scheduled')).toBeInTheDocument();
    expect(within(first).getByLabelText('Join the meeting of Access review')).toHaveAttribute(
      'href',
      'https://meet.example.com/j/1',
    );
    const second = await row('Change management');
    expect(second).toHaveTextContent('11:30AM 12/1/2099 America/Los_Angeles');
    expect(second).toHaveTextContent('1 h 30 min');
    expect(screen.getByText('12 interviews')).toBeInTheDocument();

    await ue.click(screen.getByTitle('2'));
    expect(await screen.findByText('Interview 12')).toBeInTheDocument();
    expect(address()).toBe('?tasksPage=2&view=interviews&interviewsPage=2');

    // another filter starts from its first page
    await ue.click(screen.getByLabelText('Past'));
    await waitFor(() => expect(address()).toBe('?tasksPage=2&view=interviews&interviewsWhen=past'));
    expect(await screen.findByText('No past interviews')).toBeInTheDocument();
    expect(listRequests).toEqual([
      '?page=1&pageSize=10&when=upcoming',
      '?page=2&pageSize=10&when=upcoming',
      '?page=1&pageSize=10&when=past',
    ]);
  });

  it('says when there are no upcoming interviews and offers writers one Schedule button, there from the start and through a reload', async () => {
    upcoming = [];
    let open!: () => void;
    listGate = new Promise((resolve) => (open = resolve));
    renderAt('/v2/projects/p1?view=interviews');
    const scheduleButtons = () => screen.getAllByText('Schedule interview', { selector: 'button *' });
    // while the first page loads: the toolbar's button is there already (no flicker)
    await waitFor(() => expect(scheduleButtons()).toHaveLength(1));
    open();
    expect(await screen.findByText('No upcoming interviews')).toBeInTheDocument();
    expect(scheduleButtons()).toHaveLength(1);

    // another filter loading over an empty list: still one
    listGate = new Promise((resolve) => (open = resolve));
    await ue.click(screen.getByLabelText('Past'));
    await waitFor(() => expect(listRequests).toHaveLength(2));
    expect(scheduleButtons()).toHaveLength(1);
    open();
    expect(await screen.findByText('No past interviews')).toBeInTheDocument();
    expect(scheduleButtons()).toHaveLength(1);
    await ue.click(button('Schedule interview'));
    expect(within(await findDialog()).getByText('Schedule interview')).toBeInTheDocument();
  });

  it('pages by the total of the list shown, not of the filter before while the next one loads', async () => {
    upcoming = [...upcoming, ...Array.from({ length: 10 }, (_, i) => makeInterview(i + 3))];
    renderAt('/v2/projects/p1?view=interviews');
    expect(await screen.findByText('12 interviews')).toBeInTheDocument();
    let open!: () => void;
    listGate = new Promise((resolve) => (open = resolve));
    await ue.click(screen.getByLabelText('Past'));
    await waitFor(() => expect(listRequests).toHaveLength(2));
    expect(screen.queryByText('12 interviews')).not.toBeInTheDocument();
    expect(screen.queryByTitle('2')).not.toBeInTheDocument();
    open();
    expect(await screen.findByText('No past interviews')).toBeInTheDocument();
  });

  it('shows the viewer’s own time beside the interview’s, and the whole list of people to keyboard users', async () => {
    renderAt('/v2/projects/p1?view=interviews');
    const first = await row('Access review');
    // the tests run in UTC, the interviews take place in New York and Los Angeles
    expect(first).toHaveTextContent(`Your time: ${formatDateTime('2099-11-30T15:00:00.000Z')}`);
    expect(await row('Change management')).toHaveTextContent(
      `Your time: ${formatDateTime('2099-12-01T19:30:00.000Z')}`,
    );
    const attendees = within(first).getByText('Ann Lee, Bo Lee +1');
    expect(attendees).toHaveAttribute('tabindex', '0');
    expect(attendees).toHaveAccessibleDescription('Ann Lee, Bo Lee, Daniel Reyes');
  });

  it('stops offering Reschedule and Cancel once an interview has started, on a page left open', async () => {
    const soon = new Date(Date.now() + 1500).toISOString();
    upcoming = [makeInterview(7, { title: 'Starts soon', startsAt: soon })];
    renderAt('/v2/projects/p1?view=interviews');
    const r = await row('Starts soon');
    expect(within(r).getByLabelText('Reschedule Starts soon')).toBeInTheDocument();
    expect(within(r).getByLabelText('Cancel interview Starts soon')).toBeInTheDocument();
    await waitFor(() => expect(within(r).queryByLabelText('Reschedule Starts soon')).not.toBeInTheDocument(), {
      timeout: 5000,
    });
    expect(within(r).queryByLabelText('Cancel interview Starts soon')).not.toBeInTheDocument();
    expect(within(r).getByLabelText('Download invitation Starts soon')).toBeInTheDocument();
  });

  it('opens the Schedule dialog at once, its people loading, and makes the caller organizer once they are known', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    server.use(
      http.get('*/api/v1/projects/p1/interview-people', async () => {
        await gate;
        return HttpResponse.json(people);
      }),
    );
    renderAt('/v2/projects/p1?view=interviews');
    await screen.findByText('Access review');
    await ue.click(button('Schedule interview'));
    const dialog = await findDialog();
    expect(within(dialog).getByLabelText('Title')).toBeInTheDocument();
    expect(within(dialog).queryByTitle('Sam Staff (sam@acme.test)')).not.toBeInTheDocument();
    await ue.click(within(dialog).getByLabelText('Interviewers'));
    expect(await screen.findByText('Loading the people…')).toBeInTheDocument();
    open();
    expect(await within(dialog).findByTitle('Sam Staff (sam@acme.test)')).toBeInTheDocument();
  });

  it('shows a list that could not be loaded, with a retry', async () => {
    listFails = true;
    renderAt('/v2/projects/p1?view=interviews');
    expect(await screen.findByText('The interviews could not be loaded.')).toBeInTheDocument();
    listFails = false;
    await ue.click(button('Try again'));
    expect(await screen.findByText('Access review')).toBeInTheDocument();
  });

  it('offers only the days the api takes, sends nothing for another, then schedules', async () => {
    upcoming = [];
    renderAt('/v2/projects/p1?view=interviews');
    await screen.findByText('No upcoming interviews');
    await ue.click(button('Schedule interview'));
    const dialog = await findDialog();
    await ue.type(within(dialog).getByLabelText('Title'), 'Access review walkthrough');
    // the caller is an organizer: chosen for them; an hour by default
    expect(within(dialog).getByTitle('Sam Staff (sam@acme.test)')).toBeInTheDocument();
    expect(within(dialog).getByTitle('1 h')).toBeInTheDocument();
    await chooseOption(within(dialog).getByLabelText('Time zone'), 'New_York', ZONE);
    await chooseOption(within(dialog).getByLabelText('Interviewers'), '', 'Daniel Reyes (daniel@acme.test)');
    await typeInPicker(within(dialog).getByLabelText('Time'), '10:00');

    const date = within(dialog).getByLabelText('Date');
    // a weekend, a past day and a day past the 62-day limit are greyed out in the calendar, and typed
    // they are not taken: nothing is sent
    for (const refused of [pickDay(1, isSaturday), pickDay(-1, isWeekday, -1), pickDay(63, isWeekday)]) {
      await typeInPicker(date, refused.typed);
      expect(date).not.toHaveValue(refused.typed);
      await ue.click(button('Schedule', dialog));
    }
    expect(posted).toEqual([]);

    const day = pickDay(7, isWeekday);
    await typeInPicker(date, day.typed);
    await waitFor(() => expect(date).toHaveValue(day.typed));
    await ue.click(button('Schedule', dialog));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      title: 'Access review walkthrough',
      date: day.date,
      time: '10:00',
      timeZone: ZONE,
      durationMinutes: 60,
      organizerId: 'u1',
      interviewerIds: ['u5'],
      attendeeIds: [],
    });
    await waitFor(() => expect(isClosed(dialog)).toBe(true));
    expect(summaries()).toEqual(['success: Interview scheduled']);
    // the list follows
    expect(await screen.findByText('Access review walkthrough')).toBeInTheDocument();
  });

  it('shows a refusal of the api in the dialog, which keeps what was typed', async () => {
    replies = [
      apiError(503, 'cant_schedule_meeting', 'Graph said no'),
      apiError(400, 'invalid_meeting_argument', 'Invalid meeting', [
        { field: 'attendeeIds', message: 'Zoe Client is not a member of the project or its company' },
      ]),
      apiError(400, 'validation_failed', 'organizerId is required', [
        { field: 'organizerId', message: 'organizerId is required' },
      ]),
    ];
    renderAt('/v2/projects/p1?view=interviews');
    await screen.findByText('Access review');
    await ue.click(button('Schedule interview'));
    const dialog = await findDialog();
    await ue.type(within(dialog).getByLabelText('Title'), 'Walkthrough');
    await chooseOption(within(dialog).getByLabelText('Time zone'), 'New_York', ZONE);
    await chooseOption(within(dialog).getByLabelText('Interviewers'), '', 'Daniel Reyes (daniel@acme.test)');
    await typeInPicker(within(dialog).getByLabelText('Date'), pickDay(7, isWeekday).typed);
    // Enter in the last field sends the form
    await typeInPicker(within(dialog).getByLabelText('Time'), '14:30');

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The meeting could not be scheduled.');
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ time: '14:30' });
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Walkthrough');

    await ue.click(button('Schedule', dialog));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('The meeting details are not valid.'),
    );
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Zoe Client is not a member of the project or its company',
    );

    // the api's field names never reach the user
    await ue.click(button('Schedule', dialog));
    await waitFor(() => expect(posted).toHaveLength(3));
    await waitFor(() => expect(within(dialog).getAllByText('Choose an organizer').length).toBeGreaterThanOrEqual(1));
    expect(dialog).not.toHaveTextContent('organizerId');
    expect(isClosed(dialog)).toBe(false);
    expect(summaries()).toEqual([]);
  });

  it('reschedules from the interview as it is, sending only what changed, and warns of invitations not sent', async () => {
    renderAt('/v2/projects/p1?view=interviews');
    await ue.click(within(await row('Access review')).getByLabelText('Reschedule Access review'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('Reschedule interview')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Date')).toHaveValue('11/30/2099');
    expect(within(dialog).getByLabelText('Time')).toHaveValue('10:00');
    expect(within(dialog).getByTitle(ZONE)).toBeInTheDocument();
    const title = within(dialog).getByLabelText('Title');
    await ue.clear(title);
    await ue.type(title, 'Access review, part 2');
    await ue.click(button('Reschedule', dialog));
    await waitFor(() => expect(patched).toEqual([{ title: 'Access review, part 2' }]));
    await waitFor(() => expect(isClosed(dialog)).toBe(true));
    expect(summaries()).toEqual(['success: Interview rescheduled', 'warn: Some invitations could not be sent']);
    expect(await screen.findByText('Access review, part 2')).toBeInTheDocument();
  });

  it('cancels an interview after asking, with the reason given', async () => {
    renderAt('/v2/projects/p1?view=interviews');
    await ue.click(within(await row('Access review')).getByLabelText('Cancel interview Access review'));
    const dialog = await findDialog();
    expect(dialog).toHaveTextContent('Access review on 10:00AM 11/30/2099 America/New_York will be canceled.');
    expect(canceled).toEqual([]);
    await ue.type(within(dialog).getByLabelText('Reason (optional)'), 'The auditor is ill');
    await ue.click(button('Cancel interview', dialog));
    await waitFor(() => expect(canceled).toEqual([{ id: 'i1', body: { reason: 'The auditor is ill' } }]));
    await waitFor(() => expect(isClosed(dialog)).toBe(true));
    expect(summaries()).toEqual(['success: Interview canceled']);
    await waitFor(() => expect(screen.queryByText('Access review')).not.toBeInTheDocument());
  });

  it('keeps the cancel dialog open with the api’s reason when the cancel is refused', async () => {
    replies = [apiError(409, 'interview_is_over', 'Too late')];
    renderAt('/v2/projects/p1?view=interviews');
    await ue.click(within(await row('Access review')).getByLabelText('Cancel interview Access review'));
    const dialog = await findDialog();
    await ue.click(button('Cancel interview', dialog));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The interview has already started: it can no longer be changed.',
    );
    expect(canceled).toEqual([{ id: 'i1', body: {} }]);
  });

  it.each([
    ['a client', { ...session, user: client }, makeProject({ myRole: 'Client Lead' })],
    [
      'staff who may not change the project',
      session,
      makeProject({ permissions: { manage: false, write: false, manageRoster: false } }),
    ],
  ])('offers %s the list and invitations, and nothing to change', async (_who, who, readOnly) => {
    project = readOnly;
    upcoming = [...upcoming, makeInterview(3, { title: 'Was canceled', status: 'canceled' })];
    renderAt('/v2/projects/p1?view=interviews', who);
    const first = await row('Access review');
    expect(screen.queryByText('Schedule interview')).not.toBeInTheDocument();
    expect(screen.queryByText('Reschedule')).not.toBeInTheDocument();
    expect(screen.queryByText('Cancel interview')).not.toBeInTheDocument();
    expect(within(await row('Was canceled')).getByText('Canceled')).toBeInTheDocument();

    // fetched with the session, then handed to the browser under the server's name
    const followed: { href: string; download: string }[] = [];
    const blobs: Blob[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      followed.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    const urls = URL as unknown as { createObjectURL?: (b: Blob) => string; revokeObjectURL?: (u: string) => void };
    const [create, revoke] = [urls.createObjectURL, urls.revokeObjectURL];
    urls.createObjectURL = (b: Blob) => {
      blobs.push(b);
      return 'blob:invitation';
    };
    urls.revokeObjectURL = () => undefined;
    try {
      await ue.click(within(first).getByLabelText('Download invitation Access review'));
      await waitFor(() => expect(followed).toEqual([{ href: 'blob:invitation', download: 'invite-i1.ics' }]));
      expect(await blobs[0].text()).toContain('BEGIN:VCALENDAR');
    } finally {
      click.mockRestore();
      urls.createObjectURL = create;
      urls.revokeObjectURL = revoke;
    }
  });
});
