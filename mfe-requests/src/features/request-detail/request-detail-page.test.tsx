import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import type { RequestComment, RequestDetail, RequestEvent } from '@portal/shared/core/requests';
import type { AccessPermissions } from '@portal/shared/core/schemas';
import {
  button,
  findDialog,
  findHeading,
  renderWithProviders,
  setupTestServer,
  setupUser,
} from '@portal/shared/testing';
import { Link, Route, Routes } from '@portal/shared/web/router';
import { toast$ } from '@portal/shared/web/events';
import type { SessionState } from '@portal/shared/web/session';
import { RequestDetailPage } from './request-detail-page';
import {
  ada,
  apiError,
  clientSession,
  lee,
  makeComment,
  makeEvent,
  makeFile,
  makeRequest,
  pickedFile,
  staffSession,
} from './testing/fixtures';

let request: RequestDetail;
/** Other requests the api knows besides `request` (by id). */
let others: RequestDetail[];
let comments: RequestComment[];
let events: RequestEvent[];
let detailGets: number;
let historyGets: number;
let transitions: unknown[];
let posted: unknown[];
let uploads: string[][];
/** The request each upload went to, in order. */
let uploadTargets: string[];
let deleted: string[];

const server = setupTestServer(
  http.get('*/api/v1/requests/:id', ({ params }) => {
    detailGets += 1;
    const found = [request, ...others].find((r) => r.id === params.id);
    if (!found) return HttpResponse.json(apiError('request_not_found', 'Request not found'), { status: 404 });
    return HttpResponse.json(found);
  }),
  http.get('*/api/v1/requests/r1/comments', () => HttpResponse.json({ results: comments })),
  http.get('*/api/v1/requests/r1/history', () => {
    historyGets += 1;
    return HttpResponse.json({ results: events });
  }),
  http.post('*/api/v1/requests/r1/transitions', async ({ request: req }) => {
    const body = (await req.json()) as { action: string; reason?: string };
    transitions.push(body);
    if (body.action === 'return')
      request = {
        ...request,
        status: 'returned',
        returnReason: body.reason ?? null,
        permissions: { ...request.permissions, actions: ['cancel'] },
      };
    if (body.action === 'accept')
      request = { ...request, status: 'accepted', permissions: { ...request.permissions, actions: ['reopen'] } };
    return HttpResponse.json(request);
  }),
  http.post('*/api/v1/requests/r1/comments', async ({ request: req }) => {
    const body = (await req.json()) as { body: string; internal: boolean };
    posted.push(body);
    const created = makeComment(`cm${comments.length + 1}`, body.body, {
      internal: body.internal,
      author: ada,
      createdAt: '2026-03-05T10:00:00.000Z',
    });
    comments = [...comments, created];
    return HttpResponse.json(created, { status: 201 });
  }),
  http.post('*/api/v1/requests/r1/files', ({ request: req }) => storeUpload(req)),
  http.delete('*/api/v1/requests/r1/files/:fileId', ({ params }) => {
    deleted.push(String(params.fileId));
    request = { ...request, files: request.files.filter((f) => f.id !== params.fileId) };
    return new HttpResponse(null, { status: 204 });
  }),
);

/** What the api does with an evidence upload to r1: keeps the files on the request and in its history. */
async function storeUpload(req: Request) {
  const form = await req.formData();
  const files = form.getAll('files') as File[];
  uploads.push(files.map((f) => f.name));
  uploadTargets.push(new URL(req.url).pathname);
  const created = files.map((f, i) => makeFile(`n${uploads.length}-${i}`, f.name, { canDelete: true }));
  request = { ...request, files: [...request.files, ...created] };
  events = [
    ...events,
    ...created.map((f, i) => makeEvent(`e${events.length + i + 1}`, 'file_added', { name: f.name }, lee)),
  ];
  return HttpResponse.json({ results: created }, { status: 201 });
}

/** A promise the test settles when it wants: an api reply held back meanwhile. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open: () => open() };
}

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  request = makeRequest();
  others = [];
  uploadTargets = [];
  comments = [];
  events = [makeEvent('e1', 'created')];
  detailGets = 0;
  historyGets = 0;
  transitions = [];
  posted = [];
  uploads = [];
  deleted = [];
});

const renderPage = (session: Partial<SessionState> = staffSession, route = '/requests/r1') =>
  renderWithProviders(
    <Routes>
      <Route path="/requests/:requestId" element={<RequestDetailPage />} />
    </Routes>,
    { route, session },
  );

/** The page with links to requests r1 and r2, as the list or a notification would open them. */
const renderWithLinks = (session: Partial<SessionState> = staffSession) =>
  renderWithProviders(
    <>
      <nav>
        <Link to="/requests/r1">Open r1</Link> <Link to="/requests/r2">Open r2</Link>
      </nav>
      <Routes>
        <Route path="/requests/:requestId" element={<RequestDetailPage />} />
      </Routes>
    </>,
    { route: '/requests/r1', session },
  );

/** The api's side of a second request, r2: no comments or history yet; what is posted to it is kept. */
function secondRequest(extra: Partial<RequestDetail> = {}) {
  const second = makeRequest({ id: 'r2', reference: 'REQ-0013', title: 'Access review', ...extra });
  others = [second];
  const postedToSecond: unknown[] = [];
  server.use(
    http.get('*/api/v1/requests/r2/comments', () => HttpResponse.json({ results: [] })),
    http.get('*/api/v1/requests/r2/history', () => HttpResponse.json({ results: [] })),
    http.post('*/api/v1/requests/r2/comments', async ({ request: req }) => {
      const body = (await req.json()) as { body: string; internal: boolean };
      postedToSecond.push(body);
      return HttpResponse.json(
        makeComment('x1', body.body, { requestId: 'r2', internal: body.internal, author: ada }),
        { status: 201 },
      );
    }),
    http.post('*/api/v1/requests/r2/files', () =>
      HttpResponse.json(apiError('internal_error', 'never sent here'), { status: 500 }),
    ),
  );
  return { second, postedToSecond };
}

/** What a client sees of an open request assigned to them. */
const clientView = (extra: Partial<RequestDetail> = {}) =>
  makeRequest({
    internalNote: null,
    permissions: { manage: false, respond: true, actions: ['submit'], uploadEvidence: true, commentInternal: false },
    ...extra,
  });

const actionButtons = () =>
  ['Submit', 'Accept', 'Return', 'Cancel request', 'Reopen'].filter((label) =>
    screen.queryByText(label, { selector: 'button *' }),
  );

describe('request detail', () => {
  it('shows the request with its reference, status and only the actions the api allows', async () => {
    request = makeRequest({
      status: 'submitted',
      permissions: { ...makeRequest().permissions, actions: ['accept', 'return', 'cancel'] },
    });
    renderPage();
    expect(await findHeading('Firewall review')).toBeInTheDocument();
    expect(screen.getByTestId('request-status')).toHaveTextContent('Submitted');
    expect(screen.getByTestId('request-reference')).toHaveTextContent('REQ-0012');
    expect(screen.getByRole('link', { name: 'Requests' })).toHaveAttribute('href', '/requests');
    expect(actionButtons()).toEqual(['Accept', 'Return', 'Cancel request']);
    const details = screen.getByTestId('request-details');
    expect(within(details).getByText('Lee Lead, Team: IT')).toBeInTheDocument();
    expect(within(details).getByText('Check rule 12.')).toBeInTheDocument();
    expect(button('Edit', details)).toBeInTheDocument();
  });

  it('offers a client only Submit, no Edit, and says why evidence is locked once submitted', async () => {
    request = clientView();
    const { unmount } = renderPage(clientSession);
    await findHeading('Firewall review');
    expect(actionButtons()).toEqual(['Submit']);
    expect(within(screen.getByTestId('request-details')).queryByText('Edit')).not.toBeInTheDocument();
    expect(screen.getByText('Drop evidence files here or click to browse')).toBeInTheDocument();
    unmount();

    request = clientView({
      status: 'submitted',
      permissions: { manage: false, respond: true, actions: [], uploadEvidence: false, commentInternal: false },
    });
    const second = renderPage(clientSession);
    expect(await screen.findByText('Evidence is under review.')).toBeInTheDocument();
    expect(screen.queryByText('Drop evidence files here or click to browse')).not.toBeInTheDocument();
    expect(actionButtons()).toEqual([]);
    second.unmount();

    request = clientView({
      status: 'accepted',
      permissions: { manage: false, respond: true, actions: [], uploadEvidence: false, commentInternal: false },
    });
    renderPage(clientSession);
    expect(await screen.findByText('This request is closed.')).toBeInTheDocument();
  });

  it('returns a request only with a reason, sending the status seen, and then shows the reason', async () => {
    request = makeRequest({
      status: 'submitted',
      permissions: { ...makeRequest().permissions, actions: ['accept', 'return', 'cancel'] },
    });
    renderPage();
    await findHeading('Firewall review');
    await ue.click(button('Return'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('Return request', { selector: '.ant-modal-title' })).toBeInTheDocument();
    await ue.click(button('Return request', dialog));
    expect(await within(dialog).findByText('Give the reason for returning the request.')).toBeInTheDocument();
    expect(transitions).toEqual([]);

    await ue.type(within(dialog).getByLabelText('Reason'), 'The export misses rule 12.');
    await ue.click(button('Return request', dialog));
    await waitFor(() =>
      expect(transitions).toEqual([
        { action: 'return', reason: 'The export misses rule 12.', expectedStatus: 'submitted' },
      ]),
    );
    expect(await screen.findByText('Returned: The export misses rule 12.')).toBeInTheDocument();
    expect(screen.getByTestId('request-status')).toHaveTextContent('Returned');
  });

  it('keeps the reason and reloads the request when its status changed meanwhile (409)', async () => {
    request = makeRequest({
      status: 'submitted',
      permissions: { ...makeRequest().permissions, actions: ['accept', 'return', 'cancel'] },
    });
    server.use(
      http.post('*/api/v1/requests/r1/transitions', () => {
        request = { ...request, status: 'canceled', permissions: { ...request.permissions, actions: ['reopen'] } };
        return HttpResponse.json(apiError('request_status_changed', 'The request status changed'), { status: 409 });
      }),
    );
    renderPage();
    await findHeading('Firewall review');
    const before = detailGets;
    await ue.click(button('Return'));
    const dialog = await findDialog();
    await ue.type(within(dialog).getByLabelText('Reason'), 'Missing rule 12.');
    await ue.click(button('Return request', dialog));
    expect(await within(dialog).findByText(/changed while you were looking at it/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Reason')).toHaveValue('Missing rule 12.');
    await waitFor(() => expect(screen.getByTestId('request-status')).toHaveTextContent('Canceled'));
    expect(detailGets).toBeGreaterThan(before);
    expect(actionButtons()).toEqual(['Reopen']);
  });

  it('cancels a request after confirming', async () => {
    renderPage();
    await findHeading('Firewall review');
    await ue.click(button('Cancel request'));
    const dialog = await findDialog();
    expect(dialog).toHaveTextContent('Cancel REQ-0012?');
    await ue.click(button('Cancel request', dialog));
    await waitFor(() => expect(transitions).toEqual([{ action: 'cancel', expectedStatus: 'open' }]));
  });

  it('uploads picked files one by one to the request, then lists them and refreshes the history', async () => {
    request = clientView();
    renderPage(clientSession);
    await findHeading('Firewall review');
    const historyBefore = historyGets;
    const input = screen.getByTestId('evidence-drop-zone').querySelector('input[type="file"]') as HTMLInputElement;
    expect(input).toHaveAttribute('multiple');
    await ue.upload(input, [pickedFile('rules.pdf'), pickedFile('diagram.png')]);
    const evidence = screen.getByTestId('request-evidence');
    expect(await within(evidence).findByText('rules.pdf', { selector: 'button *' })).toBeInTheDocument();
    expect(await within(evidence).findByText('diagram.png', { selector: 'button *' })).toBeInTheDocument();
    expect(uploads.flat().sort()).toEqual(['diagram.png', 'rules.pdf']);
    expect(uploads.every((names) => names.length === 1)).toBe(true);
    // once listed, a finished upload's row goes: each file shows once
    await waitFor(() => expect(screen.queryByTestId('upload-rules.pdf')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.queryByTestId('upload-diagram.png')).not.toBeInTheDocument());
    expect(within(evidence).getAllByText('rules.pdf')).toHaveLength(1);
    expect(within(evidence).queryByText('Uploads')).not.toBeInTheDocument();
    expect(await screen.findByText('Lee Lead added diagram.png')).toBeInTheDocument();
    expect(historyGets).toBeGreaterThan(historyBefore);
  });

  it('uploads files dropped on the zone', async () => {
    request = clientView();
    renderPage(clientSession);
    await findHeading('Firewall review');
    fireEvent.drop(screen.getByTestId('evidence-drop-zone'), {
      dataTransfer: { files: [pickedFile('dropped.pdf')], types: ['Files'] },
    });
    expect(await screen.findByText('dropped.pdf', { selector: 'button *' })).toBeInTheDocument();
    expect(uploads).toEqual([['dropped.pdf']]);
    await waitFor(() => expect(screen.queryByTestId('upload-dropped.pdf')).not.toBeInTheDocument());
  });

  it('shows why an upload was refused until dismissed, and never sends an empty file', async () => {
    request = clientView();
    server.use(
      http.post('*/api/v1/requests/r1/files', async ({ request: req }) => {
        uploads.push(((await req.formData()).getAll('files') as File[]).map((f) => f.name));
        return HttpResponse.json(apiError('request_under_review', 'The request is under review'), { status: 409 });
      }),
    );
    renderPage(clientSession);
    await findHeading('Firewall review');
    const input = screen.getByTestId('evidence-drop-zone').querySelector('input[type="file"]') as HTMLInputElement;
    await ue.upload(input, [pickedFile('empty.pdf', ''), pickedFile('late.pdf')]);
    expect(
      await within(screen.getByTestId('upload-late.pdf')).findByText(ERROR_MESSAGES.request_under_review),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('upload-empty.pdf')).getByText('The file is empty: there is nothing to upload.'),
    ).toBeInTheDocument();
    expect(uploads).toEqual([['late.pdf']]);
    // failed rows stay (the refetched request changes nothing) until the user dismisses them
    await waitFor(() => expect(detailGets).toBeGreaterThan(1));
    expect(screen.getByTestId('upload-late.pdf')).toBeInTheDocument();
    await ue.click(screen.getByLabelText('Dismiss the upload of late.pdf'));
    expect(screen.queryByTestId('upload-late.pdf')).not.toBeInTheDocument();
    expect(screen.getByTestId('upload-empty.pdf')).toBeInTheDocument();
  });

  it('holds Submit back, saying why, while evidence is on its way', async () => {
    request = clientView();
    const held = gate();
    server.use(
      http.post('*/api/v1/requests/r1/files', async ({ request: req }) => {
        await held.opened;
        return storeUpload(req);
      }),
    );
    renderPage(clientSession);
    await findHeading('Firewall review');
    // without evidence the api would refuse it: off, saying why
    expect(button('Submit')).toBeDisabled();
    expect(button('Submit')).toHaveAccessibleDescription('Attach at least one evidence file before submitting.');
    const input = screen.getByTestId('evidence-drop-zone').querySelector('input[type="file"]') as HTMLInputElement;
    await ue.upload(input, [pickedFile('rules.pdf')]);
    await waitFor(() => expect(button('Submit')).toHaveAccessibleDescription('Wait for the uploads to finish'));
    expect(button('Submit')).toBeDisabled();
    await ue.click(button('Submit'));
    expect(transitions).toEqual([]);

    held.open();
    await waitFor(() => expect(button('Submit')).toBeEnabled());
    expect(button('Submit')).not.toHaveAccessibleDescription();
    await ue.click(button('Submit'));
    await waitFor(() => expect(transitions).toEqual([{ action: 'submit', expectedStatus: 'open' }]));
  });

  it('keeps each request’s uploads to it: another request neither shows them nor receives them', async () => {
    request = clientView();
    secondRequest({
      ...clientView(),
      id: 'r2',
      reference: 'REQ-0013',
      title: 'Access review',
      files: [makeFile('f2', 'policy.pdf', { requestId: 'r2' })],
    });
    const held = gate();
    server.use(
      http.post('*/api/v1/requests/r1/files', async ({ request: req }) => {
        await held.opened;
        return storeUpload(req);
      }),
    );
    renderWithLinks(clientSession);
    await findHeading('Firewall review');
    const input = screen.getByTestId('evidence-drop-zone').querySelector('input[type="file"]') as HTMLInputElement;
    await ue.upload(input, [pickedFile('rules.pdf')]);
    expect(screen.getByTestId('upload-rules.pdf')).toBeInTheDocument();

    await ue.click(screen.getByRole('link', { name: 'Open r2' }));
    await findHeading('Access review');
    expect(screen.queryByTestId('upload-rules.pdf')).not.toBeInTheDocument();
    expect(button('Submit')).toBeEnabled();

    held.open();
    await waitFor(() => expect(uploadTargets).toEqual(['/api/v1/requests/r1/files']));
    await ue.click(screen.getByRole('link', { name: 'Open r1' }));
    await findHeading('Firewall review');
    expect(await screen.findByText('rules.pdf', { selector: 'button *' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('upload-rules.pdf')).not.toBeInTheDocument());
  });

  it('starts afresh on another request: a comment typed on one is never posted to another', async () => {
    const { postedToSecond } = secondRequest();
    renderWithLinks();
    await findHeading('Firewall review');
    // both requests loaded once: switching between them shows the cached one at once
    await ue.click(screen.getByRole('link', { name: 'Open r2' }));
    await findHeading('Access review');
    await ue.click(screen.getByRole('link', { name: 'Open r1' }));
    await findHeading('Firewall review');
    let section = screen.getByTestId('request-comments');
    await ue.type(within(section).getByLabelText('Comment'), 'Meant for REQ-0012');
    await ue.click(within(section).getByLabelText('Internal (staff only)'));

    await ue.click(screen.getByRole('link', { name: 'Open r2' }));
    await findHeading('Access review');
    section = screen.getByTestId('request-comments');
    expect(within(section).getByLabelText('Comment')).toHaveValue('');
    expect(within(section).getByLabelText('Internal (staff only)')).not.toBeChecked();
    expect(button('Post comment', section)).toBeDisabled();
    await ue.type(within(section).getByLabelText('Comment'), 'About access');
    await ue.click(button('Post comment', section));
    await waitFor(() => expect(postedToSecond).toEqual([{ body: 'About access', internal: false }]));

    await ue.click(screen.getByRole('link', { name: 'Open r1' }));
    await findHeading('Firewall review');
    section = screen.getByTestId('request-comments');
    expect(within(section).getByLabelText('Comment')).toHaveValue('');
    expect(posted).toEqual([]);
  });

  it('removes evidence after confirming, only where the api allows it', async () => {
    request = makeRequest({
      files: [makeFile('f1', 'rules.pdf', { canDelete: true }), makeFile('f2', 'old.pdf', { canDelete: false })],
    });
    renderPage();
    await findHeading('Firewall review');
    expect(screen.queryByLabelText('Remove old.pdf')).not.toBeInTheDocument();
    await ue.click(screen.getByLabelText('Remove rules.pdf'));
    const dialog = await findDialog();
    await ue.click(button('Remove', dialog));
    await waitFor(() => expect(deleted).toEqual(['f1']));
    await waitFor(() => expect(screen.queryByText('rules.pdf', { selector: 'button *' })).not.toBeInTheDocument());
    expect(screen.getByText('old.pdf', { selector: 'button *' })).toBeInTheDocument();
  });

  it('downloads a file through its signed link', async () => {
    request = makeRequest({ files: [makeFile('f1', 'rules.pdf')] });
    server.use(
      http.get('*/api/v1/files/f1/signed-url', () =>
        HttpResponse.json({
          url: '/api/v1/files/f1/content?sig=abc',
          expiresAt: '2026-03-02T16:00:00.000Z',
          name: 'rules.pdf',
        }),
      ),
    );
    const clicked: { href: string; download: string }[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    try {
      renderPage();
      await ue.click(await screen.findByText('rules.pdf', { selector: 'button *' }));
      await waitFor(() =>
        expect(clicked).toEqual([{ href: '/api/v1/files/f1/content?sig=abc', download: 'rules.pdf' }]),
      );
    } finally {
      click.mockRestore();
    }
  });

  it('asks a file’s link once however often it is clicked meanwhile, and says when it cannot', async () => {
    request = makeRequest({ files: [makeFile('f1', 'rules.pdf'), makeFile('f2', 'gone.pdf')] });
    const held = gate();
    let asked = 0;
    server.use(
      http.get('*/api/v1/files/f1/signed-url', async () => {
        asked += 1;
        await held.opened;
        return HttpResponse.json({
          url: '/api/v1/files/f1/content?sig=abc',
          expiresAt: '2026-03-02T16:00:00.000Z',
          name: 'rules.pdf',
        });
      }),
      http.get('*/api/v1/files/f2/signed-url', () =>
        HttpResponse.json(apiError('file_not_found', 'File not found'), { status: 404 }),
      ),
    );
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    const toasts: string[] = [];
    const subscription = toast$.subscribe((t) => toasts.push(`${t.summary}: ${t.detail ?? ''}`));
    try {
      renderPage();
      const name = await screen.findByText('rules.pdf', { selector: 'button *' });
      fireEvent.click(name);
      fireEvent.click(name);
      await waitFor(() => expect(name.closest('button')).toHaveAttribute('aria-busy', 'true'));
      await ue.click(name);
      held.open();
      await waitFor(() => expect(clicked).toEqual(['rules.pdf']));
      await waitFor(() => expect(name.closest('button')).not.toHaveAttribute('aria-busy'));
      expect(asked).toBe(1);

      await ue.click(screen.getByText('gone.pdf', { selector: 'button *' }));
      await waitFor(() => expect(toasts).toEqual([`The download could not start: ${ERROR_MESSAGES.file_not_found}`]));
      expect(clicked).toEqual(['rules.pdf']);
    } finally {
      subscription.unsubscribe();
      click.mockRestore();
    }
  });

  it('lets staff post internal comments, oldest first, with the Internal tag', async () => {
    comments = [
      makeComment('cm2', 'Second', { createdAt: '2026-03-03T10:00:00.000Z' }),
      makeComment('cm1', 'First', { createdAt: '2026-03-02T10:00:00.000Z' }),
    ];
    renderPage();
    await findHeading('Firewall review');
    const section = screen.getByTestId('request-comments');
    await waitFor(() =>
      expect(
        within(section)
          .getAllByTestId('request-comment')
          .map((c) => c.textContent),
      ).toEqual([expect.stringContaining('First'), expect.stringContaining('Second')]),
    );
    expect(button('Post comment', section)).toBeDisabled();
    await ue.type(within(section).getByLabelText('Comment'), 'Only for us');
    await ue.click(within(section).getByLabelText('Internal (staff only)'));
    await ue.click(button('Post comment', section));
    await waitFor(() => expect(posted).toEqual([{ body: 'Only for us', internal: true }]));
    await waitFor(() => expect(within(section).getAllByTestId('request-comment')).toHaveLength(3));
    const last = within(section).getAllByTestId('request-comment')[2];
    expect(last).toHaveTextContent('Only for us');
    expect(within(last).getByText('Internal')).toBeInTheDocument();
    expect(within(section).getByLabelText('Comment')).toHaveValue('');
  });

  it('gives a client no internal checkbox, posts with Ctrl+Enter, and keeps the text when posting fails', async () => {
    request = clientView();
    server.use(
      http.post(
        '*/api/v1/requests/r1/comments',
        () => HttpResponse.json(apiError('internal_error', 'Something went wrong'), { status: 500 }),
        { once: true },
      ),
    );
    renderPage(clientSession);
    await findHeading('Firewall review');
    const section = screen.getByTestId('request-comments');
    expect(within(section).queryByLabelText('Internal (staff only)')).not.toBeInTheDocument();
    const box = within(section).getByLabelText('Comment');
    await ue.type(box, 'Here is the export');
    await ue.keyboard('{Control>}{Enter}{/Control}');
    expect(await within(section).findByText('Something went wrong')).toBeInTheDocument();
    expect(box).toHaveValue('Here is the export');
    expect(posted).toEqual([]);
    await ue.click(button('Post comment', section));
    await waitFor(() => expect(posted).toEqual([{ body: 'Here is the export', internal: false }]));
    // antd mounts the box afresh when the form resets
    await waitFor(() => expect(within(section).getByLabelText('Comment')).toHaveValue(''));
  });

  it('tells the history in words, oldest first, with actor names', async () => {
    events = [
      makeEvent('e1', 'created'),
      makeEvent('e2', 'assigned', { users: ['Lee Lead'], teams: ['IT'] }),
      makeEvent('e3', 'file_added', { name: 'rules.pdf' }, lee),
      makeEvent('e4', 'status', { from: 'open', to: 'submitted', action: 'submit' }, lee),
      makeEvent('e5', 'status', { from: 'submitted', to: 'returned', action: 'return', reason: 'Missing rule 12' }),
      makeEvent('e6', 'comment', { internal: true }),
      makeEvent('e7', 'updated', { fields: ['title', 'dueDate'] }, null),
    ].reverse();
    renderPage();
    const section = await screen.findByTestId('request-history');
    await waitFor(() =>
      expect(
        within(section)
          .getAllByTestId('history-entry')
          .map((e) => e.firstChild?.textContent),
      ).toEqual([
        'Ada Admin created the request',
        'Ada Admin assigned Lee Lead, Team: IT',
        'Lee Lead added rules.pdf',
        'Lee Lead submitted the evidence',
        'Ada Admin returned the request: Missing rule 12',
        'Ada Admin added an internal note',
        'Former user changed title, due date',
      ]),
    );
  });

  it('links the project, task and control only for users the projects module is open to', async () => {
    const about = {
      task: { id: 't1', referenceId: 'CC-1', title: 'Collect rules' },
      control: { id: 'k1', name: 'CC6.1', title: 'Logical access' },
    };
    request = clientView(about);
    const { unmount } = renderPage(clientSession);
    let details = await screen.findByTestId('request-details');
    expect(within(details).getByText('SOC 2 Type II 2026').closest('a')).toHaveAttribute('href', '/v2/projects/p1');
    expect(within(details).getByText('CC-1 Collect rules').closest('a')).toHaveAttribute(
      'href',
      '/v2/projects/p1/tasks/t1',
    );
    expect(within(details).getByText('CC6.1 — Logical access').closest('a')).toHaveAttribute(
      'href',
      '/v2/projects/p1/controls/k1',
    );
    unmount();

    const access = {
      modulesAccess: { risks: true, projects: false, requests: true, reports: true, assets: true },
      settingsPermissions: {} as AccessPermissions['settingsPermissions'],
    };
    renderPage({ ...clientSession, access });
    details = await screen.findByTestId('request-details');
    for (const text of ['SOC 2 Type II 2026', 'CC-1 Collect rules', 'CC6.1 — Logical access']) {
      expect(within(details).getByText(text)).toBeInTheDocument();
      expect(within(details).getByText(text).closest('a')).toBeNull();
    }
  });

  it('says so when the request does not exist or is out of reach', async () => {
    renderPage(staffSession, '/requests/nope');
    expect(await screen.findByText('Request not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Requests' })).toHaveAttribute('href', '/requests');
  });

  it('says so when the requests module is off, and offers a retry on other failures', async () => {
    server.use(
      http.get(
        '*/api/v1/requests/r1',
        () => HttpResponse.json(apiError('module_access_denied', 'Module access denied'), { status: 403 }),
        { once: true },
      ),
    );
    const { unmount } = renderPage();
    expect(await screen.findByText('Requests are not available')).toBeInTheDocument();
    unmount();

    server.use(
      http.get('*/api/v1/requests/r1', () => HttpResponse.json(apiError('internal_error', 'boom'), { status: 500 }), {
        once: true,
      }),
    );
    renderPage();
    expect(await screen.findByText('The request could not be loaded')).toBeInTheDocument();
    await ue.click(button('Try again'));
    expect(await findHeading('Firewall review')).toBeInTheDocument();
  });
});
