import { File as NodeFile } from 'node:buffer';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  AddressQuery,
  button,
  findDialog,
  renderWithProviders,
  setupTestServer,
  setupUser,
} from '@portal/shared/testing';
import type { Transfer, TransferList, TransferUser } from '@portal/shared/core/files';
import type { Company, User } from '@portal/shared/core/schemas';
import type { SessionState } from '@portal/shared/web/session';
import { SafeTransferPage } from './safe-transfer-page';

const acme: Company = {
  id: 'c1',
  name: 'Acme Corp',
  logo: null,
  modulesAccess: { risks: true, projects: true, requests: true, reports: true, assets: true },
};
const me: User = {
  id: 'u1',
  firstName: 'Sam',
  lastName: 'Staff',
  title: null,
  email: 'sam@demo.test',
  login: 'sam@demo.test',
  avatar: null,
  status: 'active',
  primaryPhone: null,
  isTevora: true,
  isAuditor: false,
  admin: { active: false },
  sendDailyEmails: false,
  metadata: { firstLogin: false, isFederated: false, isLead: false },
  projectRoles: [],
  ldhmac: 'x',
};
const session: Partial<SessionState> = {
  user: me,
  loggedIn: true,
  companies: [acme],
  companiesLoaded: true,
  selectedCompanyId: 'c1',
  company: acme,
};

const sam = { id: 'u1', name: 'Sam Staff', email: 'sam@demo.test' };
const ann = { id: 'u2', name: 'Ann Lee', email: 'ann@acme.test' };
const bob = { id: 'u3', name: 'Bob Ray', email: 'bob@acme.test' };
const DAY = 86_400_000;

function transfer(extra: Partial<Transfer> = {}): Transfer {
  return {
    id: 'tr1',
    companyId: 'c1',
    sender: ann,
    recipients: [sam],
    message: 'The signed contract, as discussed.',
    hasPassphrase: false,
    expiresAt: new Date(Date.now() + 3 * DAY).toISOString(),
    createdAt: new Date(Date.now() - DAY).toISOString(),
    files: [
      {
        id: 'tf1',
        name: 'Contract.pdf',
        size: 2048,
        contentType: 'application/pdf',
        sha256: 'a'.repeat(64),
        downloads: [],
      },
    ],
    ...extra,
  };
}
const listOf = (results: Transfer[]): TransferList => ({ results, total: results.length, page: 1, pageSize: 20 });
const recipients: TransferUser[] = [
  { ...ann, staff: false },
  { ...bob, staff: false },
];

let received: Transfer[] = [];
let sent: Transfer[] = [];
const boxesAsked: string[] = [];
const server = setupTestServer(
  http.get('*/api/v1/companies/c1/transfers', ({ request }) => {
    const box = new URL(request.url).searchParams.get('box') ?? 'received';
    boxesAsked.push(box);
    return HttpResponse.json(listOf(box === 'sent' ? sent : received));
  }),
  http.get('*/api/v1/companies/c1/transfer-recipients', () => HttpResponse.json({ results: recipients })),
);
beforeEach(() => {
  received = [transfer()];
  sent = [];
  boxesAsked.length = 0;
});

const render = (route = '/safe-transfer') =>
  renderWithProviders(
    <>
      <SafeTransferPage />
      <AddressQuery />
    </>,
    { route, session },
  );

// Node's File: the multipart body is built by Node's FormData here, which takes no jsdom File.
const file = (name: string, size = 16, type = 'application/pdf') =>
  new NodeFile([new Uint8Array(size)], name, { type }) as unknown as File;

async function openNewTransfer(user: ReturnType<typeof setupUser>) {
  await screen.findByText(/^From |Nothing has been sent|You have not sent/);
  await user.click(button('New transfer'));
  return findDialog();
}

async function chooseRecipient(user: ReturnType<typeof setupUser>, dialog: HTMLElement, label: string) {
  await user.click(within(dialog).getByLabelText('Recipients'));
  await user.click(await screen.findByText(label, { selector: '.ant-select-item-option-content' }));
}

describe('Safe Transfer', () => {
  it('lists what was sent to the user: sender, message, files, expiry and the passphrase lock', async () => {
    received = [transfer(), transfer({ id: 'tr2', hasPassphrase: true, message: null, sender: bob })];
    render();
    const card = await screen.findByTestId('transfer-tr1');
    expect(within(card).getByText('From Ann Lee')).toBeInTheDocument();
    expect(within(card).getByText('The signed contract, as discussed.')).toBeInTheDocument();
    expect(within(card).getByText('Contract.pdf')).toBeInTheDocument();
    expect(within(card).getByText('2 KB')).toBeInTheDocument();
    expect(within(card).getByText(/^Expires in 3 days/)).toBeInTheDocument();
    expect(within(card).queryByLabelText('Protected by a passphrase')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('transfer-tr2')).getByLabelText('Protected by a passphrase')).toBeInTheDocument();
    expect(boxesAsked).toEqual(['received']);
  });

  it('shows the sender who downloaded each file, and keeps the box in the address', async () => {
    const user = setupUser();
    sent = [
      transfer({
        sender: sam,
        recipients: [ann, bob],
        files: [
          { ...transfer().files[0], downloads: [{ user: ann, at: '2026-01-03T10:00:00.000Z' }] },
          { ...transfer().files[0], id: 'tf2', name: 'Annex.docx' },
        ],
      }),
    ];
    render();
    await screen.findByText('From Ann Lee');
    await user.click(screen.getByText('Sent'));
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?box=sent'));
    const card = await screen.findByTestId('transfer-tr1');
    expect(within(card).getByText('To Ann Lee, Bob Ray')).toBeInTheDocument();
    expect(within(card).getByText(/^Downloaded by Ann Lee at /)).toBeInTheDocument();
    expect(within(card).getByText('Not downloaded yet')).toBeInTheDocument();
  });

  it('sends files to the chosen recipients with a progress bar, then shows the transfer in Sent', async () => {
    const user = setupUser();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let parts: [string, string][] = [];
    server.use(
      http.post('*/api/v1/companies/c1/transfers', async ({ request }) => {
        const form = await request.formData();
        parts = [...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}:${v.size}`]);
        await held;
        const created = transfer({ id: 'tr9', sender: sam, recipients: [ann, bob], message: 'Evidence for Q1' });
        sent = [created];
        return HttpResponse.json(created, { status: 201 });
      }),
    );
    render();
    const dialog = await openNewTransfer(user);
    await chooseRecipient(user, dialog, 'Ann Lee (ann@acme.test)');
    await chooseRecipient(user, dialog, 'Bob Ray (bob@acme.test)');
    await user.type(within(dialog).getByLabelText('Message'), 'Evidence for Q1');
    await user.upload(within(dialog).getByLabelText('Choose files'), [
      file('Evidence.pdf', 100),
      file('Logs.zip', 50, 'application/zip'),
    ]);
    expect(within(dialog).getByText('Evidence.pdf')).toBeInTheDocument();
    await user.click(button('Send', dialog));

    expect(await within(dialog).findByLabelText('Sending the transfer')).toBeInTheDocument();
    expect(button('Cancel', dialog)).toBeInTheDocument();
    await waitFor(() => expect(parts.length).toBeGreaterThan(0));
    // The text fields come first: the api reads them before the files.
    expect(parts).toEqual([
      ['recipientIds', 'u2'],
      ['recipientIds', 'u3'],
      ['message', 'Evidence for Q1'],
      ['expiresInDays', '7'],
      ['files', 'file:Evidence.pdf:100'],
      ['files', 'file:Logs.zip:50'],
    ]);

    release();
    await waitFor(() => expect(screen.getByLabelText('query').textContent).toBe('?box=sent'));
    expect(await screen.findByText('To Ann Lee, Bob Ray')).toBeInTheDocument();
    await waitFor(() => expect((dialog.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display).toBe('none'));

    // The form starts over for the next transfer.
    await user.click(button('New transfer'));
    const again = await findDialog();
    expect(within(again).queryByText('Evidence.pdf')).not.toBeInTheDocument();
    expect(within(again).queryByText('Ann Lee (ann@acme.test)')).not.toBeInTheDocument();
  });

  it('cancels a send in progress and keeps what was entered', async () => {
    const user = setupUser();
    server.use(http.post('*/api/v1/companies/c1/transfers', () => new Promise<never>(() => undefined)));
    render();
    const dialog = await openNewTransfer(user);
    await chooseRecipient(user, dialog, 'Ann Lee (ann@acme.test)');
    await user.upload(within(dialog).getByLabelText('Choose files'), file('Evidence.pdf'));
    await user.click(button('Send', dialog));
    await within(dialog).findByLabelText('Sending the transfer');
    await user.click(button('Cancel', dialog));
    expect(await within(dialog).findByText('Sending was canceled. Nothing was sent.')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Sending the transfer')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Evidence.pdf')).toBeInTheDocument();
    expect(within(dialog).getByText('Ann Lee (ann@acme.test)')).toBeInTheDocument();
  });

  it('says what is missing before sending: a recipient, a file, a long enough passphrase', async () => {
    const user = setupUser();
    let posted = false;
    server.use(
      http.post('*/api/v1/companies/c1/transfers', () => {
        posted = true;
        return HttpResponse.json({}, { status: 500 });
      }),
    );
    render();
    const dialog = await openNewTransfer(user);
    await user.type(within(dialog).getByLabelText('Passphrase (optional)'), 'short');
    await user.click(button('Send', dialog));
    expect(await within(dialog).findByText('Choose at least one recipient')).toBeInTheDocument();
    expect(within(dialog).getByText('Add at least one file.')).toBeInTheDocument();
    expect(within(dialog).getByText('Must be at least 8 characters')).toBeInTheDocument();
    expect(posted).toBe(false);
  });

  it('turns away empty and oversized files, saying which', async () => {
    const user = setupUser();
    render();
    const dialog = await openNewTransfer(user);
    const big = file('Huge.zip', 8, 'application/zip');
    Object.defineProperty(big, 'size', { value: 101 * 1024 * 1024 });
    await user.upload(within(dialog).getByLabelText('Choose files'), [
      file('Empty.txt', 0, 'text/plain'),
      big,
      file('Fine.pdf'),
    ]);
    expect(await within(dialog).findByText('Empty.txt is empty.')).toBeInTheDocument();
    expect(within(dialog).getByText('Huge.zip is larger than 100 MB.')).toBeInTheDocument();
    expect(within(dialog).getByText('Fine.pdf')).toBeInTheDocument();
  });

  it('shows the api refusal on its field and keeps the form as entered', async () => {
    const user = setupUser();
    server.use(
      http.post('*/api/v1/companies/c1/transfers', () =>
        HttpResponse.json(
          {
            code: 'unsupported_file_type',
            message: 'This type of file is not accepted, or its content does not match its name.',
            requestId: 'r',
            details: [{ field: 'files', message: 'Evidence.pdf: its content is not a PDF.' }],
          },
          { status: 415 },
        ),
      ),
    );
    render();
    const dialog = await openNewTransfer(user);
    await chooseRecipient(user, dialog, 'Ann Lee (ann@acme.test)');
    await user.upload(within(dialog).getByLabelText('Choose files'), file('Evidence.pdf'));
    await user.click(button('Send', dialog));
    expect(await within(dialog).findByText('Evidence.pdf: its content is not a PDF.')).toBeInTheDocument();
    expect(within(dialog).getByText('Evidence.pdf')).toBeInTheDocument();
    expect(within(dialog).getByText('Ann Lee (ann@acme.test)')).toBeInTheDocument();
  });

  it('asks the passphrase of a protected transfer and says when it is wrong', async () => {
    const user = setupUser();
    received = [transfer({ hasPassphrase: true })];
    const tried: (string | null)[] = [];
    server.use(
      http.get('*/api/v1/files/tf1/signed-url', ({ request }) => {
        const passphrase = request.headers.get('x-transfer-passphrase');
        tried.push(passphrase);
        if (passphrase !== 'correct horse') {
          return HttpResponse.json(
            { code: 'transfer_passphrase_incorrect', message: 'The passphrase is not correct.', requestId: 'r' },
            { status: 403 },
          );
        }
        return HttpResponse.json({
          url: '/api/v1/files/tf1/content?v=1',
          expiresAt: new Date(Date.now() + 300_000).toISOString(),
          name: 'Contract.pdf',
        });
      }),
    );
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    render();
    await screen.findByText('From Ann Lee');
    await user.click(screen.getByLabelText('Download Contract.pdf'));
    const dialog = await findDialog();
    expect(within(dialog).getByText('Download Contract.pdf')).toBeInTheDocument();
    expect(tried).toEqual([]);

    await user.type(within(dialog).getByLabelText('Passphrase'), 'wrong guess');
    await user.click(button('Download', dialog));
    expect(await within(dialog).findByText('The passphrase is not correct.')).toBeInTheDocument();
    expect(click).not.toHaveBeenCalled();

    const input = within(dialog).getByLabelText('Passphrase');
    fireEvent.change(input, { target: { value: 'correct horse' } });
    await user.click(button('Download', dialog));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(tried).toEqual(['wrong guess', 'correct horse']);
    await waitFor(() =>
      expect((dialog.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display ?? 'none').toBe('none'),
    );
    click.mockRestore();
  });

  it('withdraws a sent transfer only after the sender confirms', async () => {
    const user = setupUser();
    sent = [transfer({ sender: sam, recipients: [ann] })];
    let deleted: string | null = null;
    server.use(
      http.delete('*/api/v1/transfers/:id', ({ params }) => {
        deleted = String(params.id);
        sent = [];
        return new HttpResponse(null, { status: 204 });
      }),
    );
    render('/safe-transfer?box=sent');
    const card = await screen.findByTestId('transfer-tr1');
    await user.click(button('Withdraw', card));
    expect(await screen.findByText('Withdraw this transfer?')).toBeInTheDocument();
    expect(deleted).toBeNull();
    const confirm = screen.getByText('Withdraw this transfer?').closest('.ant-popover') as HTMLElement;
    await user.click(button('Withdraw', confirm));
    await waitFor(() => expect(deleted).toBe('tr1'));
    expect(await screen.findByText('You have not sent anything yet')).toBeInTheDocument();
  });

  it('lets the sender download from Sent without asking the passphrase, and shows the download once the api recorded it', async () => {
    const user = setupUser();
    sent = [transfer({ sender: sam, recipients: [ann], hasPassphrase: true })];
    const tried: (string | null)[] = [];
    server.use(
      http.get('*/api/v1/files/tf1/signed-url', ({ request }) => {
        tried.push(request.headers.get('x-transfer-passphrase'));
        return HttpResponse.json({
          url: '/api/v1/files/tf1/content?v=1',
          expiresAt: new Date(Date.now() + 300_000).toISOString(),
          name: 'Contract.pdf',
        });
      }),
    );
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    render('/safe-transfer?box=sent');
    const card = await screen.findByTestId('transfer-tr1');
    const asked = boxesAsked.length;
    await user.click(within(card).getByLabelText('Download Contract.pdf'));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(tried).toEqual([null]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // at once, and again a little later: the api records the download when the link is fetched
    await waitFor(() => expect(boxesAsked.length).toBe(asked + 2), { timeout: 4000 });
    click.mockRestore();
  });

  it('forgets the passphrase and ignores pastes once the dialog is closed', async () => {
    const user = setupUser();
    render();
    let dialog = await openNewTransfer(user);
    await user.type(within(dialog).getByLabelText('Passphrase (optional)'), 'secret words');
    fireEvent.pointerEnter(screen.getByTestId('transfer-drop-zone'));
    await user.click(button('Close', dialog));
    await waitFor(() => expect((dialog.closest('.ant-modal-wrap') as HTMLElement | null)?.style.display).toBe('none'));
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(paste, 'clipboardData', { value: { files: [file('Pasted.pdf')] } });
    document.dispatchEvent(paste);
    expect(paste.defaultPrevented).toBe(false);

    await user.click(button('New transfer'));
    dialog = await findDialog();
    expect(within(dialog).getByLabelText('Passphrase (optional)')).toHaveValue('');
    expect(within(dialog).getByLabelText('Passphrase (optional)')).toHaveAttribute('autocomplete', 'new-password');
    expect(within(dialog).queryByText('Pasted.pdf')).not.toBeInTheDocument();
  });
});
