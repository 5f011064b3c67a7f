import { File as NodeFile } from 'node:buffer';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { PracticeDetail, TaskTrackerDetail, TaskTrackerSummary } from '@portal/shared/core/practices';
import { renderWithProviders } from '@portal/shared/testing';
import { toast$, type ToastMessage } from '@portal/shared/web/events';
import { Route, Routes } from '@portal/shared/web/router';
import type { SessionState } from '@portal/shared/web/session';
import { button, findDialog, findHeading, sessionFor, setupTestServer, setupUser } from '../../../testing/fixtures';
import { PracticeDetailPage } from './practices-pages';

const practice: PracticeDetail = {
  id: 'p1',
  name: 'PCI DSS',
  description: 'Payment card audits',
  status: 'active',
  templateCount: 2,
  publishedTemplateCount: 1,
  staffCount: 1,
  projectCount: 3,
  updatedAt: '2026-03-04T15:05:00',
  staff: [{ id: 's2', firstName: 'Ben', lastName: 'Stone', email: 'ben@tevora.test' }],
};
const template = (id: string, name: string, extra: Partial<TaskTrackerSummary> = {}): TaskTrackerSummary => ({
  id,
  practiceId: 'p1',
  name,
  description: '',
  status: 'draft',
  taskCount: 4,
  controlCount: 2,
  pointOfFocusCount: 3,
  createdBy: null,
  createdAt: '2026-03-01T10:00:00',
  updatedAt: '2026-03-02T10:00:00',
  ...extra,
});
const trackerDetail = (t: TaskTrackerSummary): TaskTrackerDetail => ({
  ...t,
  practice: { id: 'p1', name: 'PCI DSS', status: 'active' },
  tasks: [
    {
      id: 'k1',
      referenceId: 'T-1',
      title: 'Collect network diagrams',
      description: 'Current ones',
      controls: ['NS-1'],
      subtasks: [
        { id: 'k2', referenceId: 'T-1.1', title: 'Review firewall rules', description: null, controls: ['NS-2'] },
      ],
    },
  ],
  controls: [
    {
      id: 'c1',
      name: 'NS-1',
      title: 'Network segmentation',
      description: null,
      pointsOfFocus: [{ id: 'f1', name: 'Diagrams are current', description: null }],
    },
    { id: 'c2', name: 'NS-2', title: 'Firewall review', description: null, pointsOfFocus: [] },
  ],
});

let templates: TaskTrackerSummary[] = [];
const sent: string[] = [];
let lastForm: [string, string][] = [];
const formEntries = async (request: Request) =>
  [...(await request.formData()).entries()].map(([k, v]): [string, string] => [
    k,
    typeof v === 'string' ? v : `file:${v.name}`,
  ]);

const duplicateIds = () =>
  HttpResponse.json(
    {
      code: 'task_reference_id_already_exist_on_project',
      message: 'Task IDs must be unique or null',
      requestId: 'r',
      details: [{ field: 'file', message: 'Rows 3 and 7, Task ID: T-1 is used twice' }],
    },
    { status: 400 },
  );
const malformed = (n: number) =>
  HttpResponse.json(
    {
      code: 'malformed_task_tracker',
      message: 'Row 2, Task Title: Task Title is required',
      requestId: 'r',
      details: Array.from({ length: n }, (_, i) => ({
        field: 'file',
        message: `Row ${i + 2}, Task Title: Task Title is required`,
      })),
    },
    { status: 400 },
  );

const server = setupTestServer(
  http.get('*/api/v1/practices/:id', ({ params }) =>
    params.id === 'p1'
      ? HttpResponse.json(practice)
      : HttpResponse.json(
          { code: 'practice_not_found', message: 'Practice not found.', requestId: 'r' },
          { status: 404 },
        ),
  ),
  http.get('*/api/v1/practices/p1/task-trackers', () => HttpResponse.json({ results: templates })),
  http.get('*/api/v1/task-trackers/:id', ({ params }) =>
    HttpResponse.json(trackerDetail(templates.find((t) => t.id === params.id)!)),
  ),
  http.patch('*/api/v1/task-trackers/:id', async ({ request, params }) => {
    const body = (await request.json()) as Partial<TaskTrackerSummary>;
    sent.push(`PATCH ${String(params.id)} ${JSON.stringify(body)}`);
    templates = templates.map((t) => (t.id === params.id ? { ...t, ...body } : t));
    return HttpResponse.json(templates.find((t) => t.id === params.id));
  }),
  http.delete('*/api/v1/task-trackers/:id', ({ params }) => {
    sent.push(`DELETE ${String(params.id)}`);
    templates = templates.filter((t) => t.id !== params.id);
    return new HttpResponse(null, { status: 204 });
  }),
  http.post('*/api/v1/practices/p1/task-trackers/import', async ({ request }) => {
    lastForm = await formEntries(request);
    sent.push('POST import');
    const file = lastForm.find(([k]) => k === 'file')?.[1];
    if (file === 'file:dupes.xlsx') return duplicateIds();
    if (file === 'file:broken.csv') return malformed(12);
    const name = lastForm.find(([k]) => k === 'name')?.[1] ?? '';
    // a new id per import, as the api gives: a test that imports twice lists two templates
    const tracker = template(`t9-${(imports += 1)}`, name, { taskCount: 500 });
    templates = [...templates, tracker];
    return HttpResponse.json({ tracker, rows: 500, tasks: 500, controls: 20, pointsOfFocus: 40 }, { status: 201 });
  }),
  http.put('*/api/v1/task-trackers/:id/import', async ({ request, params }) => {
    lastForm = await formEntries(request);
    sent.push(`PUT import ${String(params.id)}`);
    templates = templates.map((t) => (t.id === params.id ? { ...t, taskCount: 12 } : t));
    return HttpResponse.json({
      tracker: templates.find((t) => t.id === params.id),
      rows: 12,
      tasks: 12,
      controls: 3,
      pointsOfFocus: 0,
    });
  }),
);

let imports = 0;
let ue = setupUser();
const toasts: ToastMessage[] = [];
const subscription = toast$.subscribe((t) => toasts.push(t));
afterAll(() => subscription.unsubscribe());
beforeEach(() => {
  ue = setupUser();
  templates = [
    template('t1', 'Baseline', { status: 'published' }),
    template('t2', 'Draft one'),
    template('t3', 'Empty', { taskCount: 0, controlCount: 0 }),
  ];
});
afterEach(() => {
  sent.length = 0;
  toasts.length = 0;
  lastForm = [];
});

const editor = sessionFor({ isTevora: true });
const renderPage = (id = 'p1', session: Partial<SessionState> = editor) =>
  renderWithProviders(
    <Routes>
      <Route path="/settings/practices/:practiceId" element={<PracticeDetailPage />} />
    </Routes>,
    { route: `/settings/practices/${id}`, session },
  );

const csv = (name: string, text = 'Task ID,Task Title\nT-1,First\n') =>
  new NodeFile([text], name, { type: 'text/csv' }) as unknown as File;
/** Closed: gone (its content is destroyed once hidden) or hidden. */
const closed = (dialog: HTMLElement) =>
  !dialog.isConnected || (dialog.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display === 'none';
const templateRow = (name: string) =>
  screen.getByText(name, { selector: 'td > div > div' }).closest('tr') as HTMLElement;

async function openImport() {
  await screen.findByText('Baseline', { selector: 'td > div > div' });
  await ue.click(button('Import template'));
  const dialog = await findDialog();
  expect(within(dialog).getByText('Import template', { selector: '.ant-modal-title' })).toBeInTheDocument();
  return dialog;
}

describe('a practice page', () => {
  it('shows the practice, its staff and its templates', async () => {
    renderPage();
    expect(await findHeading('PCI DSS')).toBeInTheDocument();
    expect(screen.getByText('Practices & Templates').closest('a')).toHaveAttribute('href', '/settings/practices');
    expect(screen.getByText('Payment card audits')).toBeInTheDocument();
    expect(screen.getByText('Ben Stone')).toHaveAttribute('href', '/settings/tevora/user/s2');
    expect(await findHeading('Templates')).toBeInTheDocument();
    await screen.findByText('Baseline', { selector: 'td > div > div' });
    expect(within(templateRow('Baseline')).getByText('Published')).toBeInTheDocument();
    expect(within(templateRow('Draft one')).getByText('Draft')).toBeInTheDocument();
    expect(within(templateRow('Draft one')).getByText('4')).toBeInTheDocument();
    // the actions a status allows
    expect(screen.getByLabelText('Unpublish Baseline')).toBeInTheDocument();
    expect(screen.queryByLabelText('Publish Baseline')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Replace from file Baseline')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Replace from file Draft one')).toBeInTheDocument();
    expect(screen.getByLabelText('Publish Empty')).toBeDisabled();
  });

  it('says when the practice does not exist, with a way back', async () => {
    renderPage('gone');
    expect(await findHeading('Practice not found')).toBeInTheDocument();
    expect(screen.getByText('Back to Practices & Templates')).toHaveAttribute('href', '/settings/practices');
  });

  it('publishes at once, and unpublishes and retires templates only after a confirmation', async () => {
    renderPage();
    await screen.findByText('Draft one', { selector: 'td > div > div' });
    await ue.click(screen.getByLabelText('Publish Draft one'));
    await waitFor(() => expect(sent).toContain('PATCH t2 {"status":"published"}'));
    await waitFor(() => expect(within(templateRow('Draft one')).getByText('Published')).toBeInTheDocument());

    await ue.click(screen.getByLabelText('Unpublish Baseline'));
    let dialog = await findDialog();
    expect(
      within(dialog).getByText('Unpublish Baseline?', { selector: '.ant-modal-confirm-title' }),
    ).toBeInTheDocument();
    await ue.click(button('Cancel', dialog));
    expect(sent).toEqual(['PATCH t2 {"status":"published"}']);
    await ue.click(screen.getByLabelText('Unpublish Baseline'));
    await ue.click(button('Unpublish', await findDialog()));
    await waitFor(() => expect(sent).toContain('PATCH t1 {"status":"draft"}'));

    await ue.click(await screen.findByLabelText('Retire Draft one'));
    dialog = await findDialog();
    expect(within(dialog).getByText('Retire Draft one?', { selector: '.ant-modal-confirm-title' })).toBeInTheDocument();
    expect(sent).not.toContain('PATCH t2 {"status":"retired"}');
    await ue.click(button('Retire', dialog));
    await waitFor(() => expect(sent).toContain('PATCH t2 {"status":"retired"}'));
    await waitFor(() => expect(within(templateRow('Draft one')).getByText('Retired')).toBeInTheDocument());
  });

  it('deletes a template only after a confirmation', async () => {
    renderPage();
    await screen.findByText('Draft one', { selector: 'td > div > div' });
    await ue.click(screen.getByLabelText('Delete Draft one'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('Delete Draft one?', { selector: '.ant-modal-confirm-title' })).toBeInTheDocument();
    expect(sent).toEqual([]);
    await ue.click(button('Delete', dialog));
    await waitFor(() => expect(sent).toEqual(['DELETE t2']));
    await waitFor(() =>
      expect(screen.queryByText('Draft one', { selector: 'td > div > div' })).not.toBeInTheDocument(),
    );
  });

  it('shows a template with its tasks, subtasks, controls and points of focus', async () => {
    renderPage();
    await screen.findByText('Baseline', { selector: 'td > div > div' });
    await ue.click(screen.getByLabelText('View Baseline'));
    const drawer = await findDialog();
    expect(within(drawer).getByText('Baseline', { selector: '.ant-drawer-title' })).toBeInTheDocument();
    expect(await within(drawer).findByText('Collect network diagrams')).toBeInTheDocument();
    expect(within(drawer).getByText('T-1')).toBeInTheDocument();
    expect(within(drawer).getByText('Review firewall rules')).toBeInTheDocument();
    expect(within(drawer).getByText('T-1.1')).toBeInTheDocument();
    expect(within(drawer).getByText('Network segmentation')).toBeInTheDocument();
    expect(
      within(within(drawer).getByLabelText('Points of focus of NS-1')).getByText('Diagrams are current'),
    ).toBeInTheDocument();
  });

  it('downloads exports under the server’s file name, toasts a refusal, and offers the template files', async () => {
    const clicked: { href: string; download: string }[] = [];
    const exports: string[] = [];
    server.use(
      http.get('*/api/v1/task-trackers/:id/export', ({ params, request }) => {
        const format = new URL(request.url).searchParams.get('format');
        exports.push(`${String(params.id)} ${format} ${request.headers.get('x-portal-client')}`);
        if (params.id === 't2')
          return HttpResponse.json(
            { code: 'task_tracker_not_found', message: 'gone', requestId: 'r' },
            { status: 404 },
          );
        return new HttpResponse('Task ID,Task Title\n', {
          headers: { 'content-disposition': `attachment; filename="Baseline export.${format}"` },
        });
      }),
    );
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    const created = jest.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: jest.fn() });
    try {
      renderPage();
      await screen.findByText('Baseline', { selector: 'td > div > div' });
      await ue.click(screen.getByLabelText('Export CSV Baseline'));
      await waitFor(() => expect(clicked).toHaveLength(1));
      await ue.click(screen.getByLabelText('Export XLSX Baseline'));
      await waitFor(() => expect(clicked).toHaveLength(2));
      expect(clicked).toEqual([
        { href: 'blob:export', download: 'Baseline export.csv' },
        { href: 'blob:export', download: 'Baseline export.xlsx' },
      ]);
      expect(exports).toEqual(['t1 csv web', 't1 xlsx web']);
      await ue.click(screen.getByLabelText('Export CSV Draft one'));
      await waitFor(() =>
        expect(toasts).toContainEqual(
          expect.objectContaining({ severity: 'error', detail: 'No templates found for the chosen practice.' }),
        ),
      );
      expect(clicked).toHaveLength(2);
    } finally {
      click.mockRestore();
    }
    const dialog = await openImport();
    expect(within(dialog).getByText('Download CSV template').closest('a')).toHaveAttribute(
      'href',
      '/api/v1/task-trackers/file-template?format=csv',
    );
    expect(within(dialog).getByText('Download XLSX template').closest('a')).toHaveAttribute(
      'href',
      '/api/v1/task-trackers/file-template?format=xlsx',
    );
  });

  it('imports a template from a file with progress, then toasts and lists it', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post('*/api/v1/practices/p1/task-trackers/import', async ({ request }) => {
        lastForm = await formEntries(request);
        await held;
        const tracker = template('t9', 'SOC tracker', { taskCount: 500 });
        templates = [...templates, tracker];
        return HttpResponse.json({ tracker, rows: 500, tasks: 500, controls: 20, pointsOfFocus: 40 }, { status: 201 });
      }),
    );
    renderPage();
    const dialog = await openImport();
    const input = within(dialog).getByLabelText('Task tracker file');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', '.csv,.xlsx');
    await ue.type(within(dialog).getByLabelText('Name'), 'SOC tracker');
    await ue.type(within(dialog).getByLabelText('Description'), 'Five hundred rows');
    await ue.upload(input, csv('tracker.csv'));
    expect(within(dialog).getByText('tracker.csv')).toBeInTheDocument();
    await ue.click(button('Import', dialog));

    expect(await within(dialog).findByText(/Uploading… \d+%/)).toBeInTheDocument();
    await waitFor(() => expect(lastForm.length).toBeGreaterThan(0));
    // the text fields first: the api reads them before the file
    expect(lastForm).toEqual([
      ['name', 'SOC tracker'],
      ['description', 'Five hundred rows'],
      ['file', 'file:tracker.csv'],
    ]);
    release();
    await waitFor(() =>
      expect(toasts).toContainEqual({ severity: 'success', summary: 'Imported SOC tracker: 500 tasks' }),
    );
    expect(await screen.findByText('SOC tracker', { selector: 'td > div > div' })).toBeInTheDocument();
    await waitFor(() => expect(closed(dialog)).toBe(true));
  });

  it('keeps the dialog open with the message and the rows when the file has duplicate Task IDs', async () => {
    renderPage();
    const dialog = await openImport();
    await ue.type(within(dialog).getByLabelText('Name'), 'Dupes');
    await ue.upload(
      within(dialog).getByLabelText('Task tracker file'),
      new NodeFile(['x'], 'dupes.xlsx') as unknown as File,
    );
    await ue.click(button('Import', dialog));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Task IDs must be unique or null');
    expect(alert).toHaveTextContent('Rows 3 and 7, Task ID: T-1 is used twice');
    expect(alert).toHaveTextContent('Nothing was imported');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Dupes');
    expect(screen.queryByText('Dupes', { selector: 'td > div > div' })).not.toBeInTheDocument();
    expect(toasts).toEqual([]);
  });

  it('lists the first ten problems of a malformed file and counts the rest', async () => {
    renderPage();
    const dialog = await openImport();
    await ue.type(within(dialog).getByLabelText('Name'), 'Broken');
    await ue.upload(within(dialog).getByLabelText('Task tracker file'), csv('broken.csv'));
    await ue.click(button('Import', dialog));
    const alert = await within(dialog).findByRole('alert');
    expect(
      within(alert).getByText('Row 2, Task Title: Task Title is required', { selector: '.ant-alert-title' }),
    ).toBeInTheDocument();
    // the headline is not repeated beneath it: rows 3 to 12 are listed, the 13th counted
    const items = within(within(alert).getByLabelText('Problems in the file')).getAllByRole('listitem');
    expect(items).toHaveLength(10);
    expect(items[0]).toHaveTextContent('Row 3, Task Title');
    expect(alert).toHaveTextContent('Row 12, Task Title');
    expect(alert).not.toHaveTextContent('Row 13, Task Title');
    expect(alert).toHaveTextContent('and 1 more');
  });

  it('turns away a file that is neither .csv nor .xlsx before sending it', async () => {
    renderPage();
    const dialog = await openImport();
    await ue.type(within(dialog).getByLabelText('Name'), 'Text');
    // a drop is not filtered by the input's accept
    fireEvent.drop(screen.getByTestId('tracker-drop-zone'), {
      dataTransfer: { files: [csv('tracker.txt')], types: ['Files'] },
    });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only CSV files are accepted. This may just require adding a .csv to the filename.',
    );
    await ue.click(button('Import', dialog));
    fireEvent.drop(screen.getByTestId('tracker-drop-zone'), {
      dataTransfer: { files: [csv('old.xls')], types: ['Files'] },
    });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Only .xlsx files are accepted.');
    await ue.click(button('Import', dialog));
    expect(sent).toEqual([]);
  });

  it('asks for a name and a file before sending', async () => {
    renderPage();
    const dialog = await openImport();
    await ue.click(button('Import', dialog));
    expect(await within(dialog).findByText('Is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a task tracker file.')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('shows a taken template name on the Name field', async () => {
    server.use(
      http.post('*/api/v1/practices/p1/task-trackers/import', () =>
        HttpResponse.json(
          {
            code: 'task_tracker_name_taken',
            message: 'This practice already has a template with this name.',
            requestId: 'r',
            details: [{ field: 'name', message: 'name is already used by another template of this practice' }],
          },
          { status: 409 },
        ),
      ),
    );
    renderPage();
    const dialog = await openImport();
    await ue.type(within(dialog).getByLabelText('Name'), 'Baseline');
    await ue.upload(within(dialog).getByLabelText('Task tracker file'), csv('tracker.csv'));
    await ue.click(button('Import', dialog));
    expect(
      await within(dialog).findByText('name is already used by another template of this practice'),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('cancels an import while it is sent', async () => {
    server.use(http.post('*/api/v1/practices/p1/task-trackers/import', () => new Promise<never>(() => undefined)));
    renderPage();
    const dialog = await openImport();
    await ue.type(within(dialog).getByLabelText('Name'), 'Slow');
    await ue.upload(within(dialog).getByLabelText('Task tracker file'), csv('tracker.csv'));
    await ue.click(button('Import', dialog));
    await within(dialog).findByText(/Uploading…/);
    await ue.click(button('Cancel', dialog));
    expect(await within(dialog).findByText('The import was canceled. Nothing was imported.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Slow');
    expect(button('Import', dialog)).toBeEnabled();
  });

  it('replaces a draft from a file', async () => {
    renderPage();
    await screen.findByText('Draft one', { selector: 'td > div > div' });
    await ue.click(screen.getByLabelText('Replace from file Draft one'));
    const dialog = await findDialog();
    expect(within(dialog).queryByLabelText('Name')).not.toBeInTheDocument();
    await ue.upload(within(dialog).getByLabelText('Task tracker file'), csv('new.csv'));
    await ue.click(button('Replace', dialog));
    await waitFor(() =>
      expect(toasts).toContainEqual({ severity: 'success', summary: 'Replaced Draft one: 12 tasks' }),
    );
    expect(sent).toEqual(['PUT import t2']);
    expect(lastForm).toEqual([['file', 'file:new.csv']]);
    await waitFor(() => expect(within(templateRow('Draft one')).getByText('12')).toBeInTheDocument());
  });

  it('is read-only for staff who may not edit practices', async () => {
    renderPage('p1', sessionFor({ isTevora: true, isAuditor: true }));
    await screen.findByText('Baseline', { selector: 'td > div > div' });
    expect(screen.queryByText('Import template')).not.toBeInTheDocument();
    expect(screen.queryByText('Edit practice')).not.toBeInTheDocument();
    expect(screen.queryByText('Retire practice')).not.toBeInTheDocument();
    for (const action of [
      'Publish Draft one',
      'Unpublish Baseline',
      'Retire Baseline',
      'Replace from file Draft one',
      'Delete Baseline',
    ]) {
      expect(screen.queryByLabelText(action)).not.toBeInTheDocument();
    }
    expect(screen.getByLabelText('View Baseline')).toBeInTheDocument();
    expect(screen.getByLabelText('Export CSV Baseline')).toBeInTheDocument();
  });

  it('keeps field ids unique, and starts each opening afresh with the Name focused', async () => {
    const duplicateIds = () => {
      const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
      return ids.filter((id, i) => ids.indexOf(id) !== i);
    };
    renderPage();
    let dialog = await openImport();
    await waitFor(() => expect(within(dialog).getByLabelText('Name')).toHaveFocus());
    await ue.type(within(dialog).getByLabelText('Name'), 'Left over');
    await ue.click(button('Cancel', dialog));
    await waitFor(() => expect(closed(dialog)).toBe(true));

    // the edit dialog's fields are named like the import's: their ids must not clash
    await ue.click(button('Edit practice'));
    const edit = await findDialog();
    expect(within(edit).getByLabelText('Name')).toHaveValue('PCI DSS');
    expect(duplicateIds()).toEqual([]);
    await ue.click(button('Cancel', edit));
    await waitFor(() => expect(closed(edit)).toBe(true));

    await ue.click(button('Import template'));
    dialog = await findDialog();
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('');
    expect(name.id).toMatch(/^template-import_/);
    await waitFor(() => expect(name).toHaveFocus());
    expect(duplicateIds()).toEqual([]);
  });

  it('imports on Enter in the name, and only once however often Import is pressed', async () => {
    renderPage();
    const dialog = await openImport();
    await ue.upload(within(dialog).getByLabelText('Task tracker file'), csv('tracker.csv'));
    await ue.type(within(dialog).getByLabelText('Name'), 'By Enter{Enter}');
    await waitFor(() =>
      expect(toasts).toContainEqual({ severity: 'success', summary: 'Imported By Enter: 500 tasks' }),
    );
    expect(sent).toEqual(['POST import']);

    await waitFor(() => expect(closed(dialog)).toBe(true));
    sent.length = 0;
    await ue.click(button('Import template'));
    const again = await findDialog();
    await ue.type(within(again).getByLabelText('Name'), 'Twice');
    await ue.upload(within(again).getByLabelText('Task tracker file'), csv('tracker.csv'));
    const importButton = button('Import', again);
    fireEvent.click(importButton);
    fireEvent.click(importButton);
    await waitFor(() => expect(toasts).toContainEqual({ severity: 'success', summary: 'Imported Twice: 500 tasks' }));
    expect(sent).toEqual(['POST import']);
  });
});
