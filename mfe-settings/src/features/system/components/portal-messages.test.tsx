import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { PortalMessage } from '@portal/shared/core/schemas';
import type { SystemSettingFile } from '@portal/shared/core/settings';
import { renderWithProviders } from '@portal/shared/testing';
import { AddressQuery, button, findDialog, sessionFor, setupTestServer, setupUser } from '../../../testing/fixtures';
import { SystemPage } from './system-page';

const message = (id: string, extra: Partial<PortalMessage> = {}): PortalMessage => ({
  id,
  key: 'banner',
  status: 'inactive',
  value: '<p>Maintenance on <b>Sunday</b></p>',
  version: 1,
  dismissed: false,
  updatedAt: '2026-05-06T09:30:00',
  ...extra,
});
const file = (id: string, name: string): SystemSettingFile => ({
  id,
  name,
  contentType: 'application/pdf',
  size: 2048,
  sha256: 'x',
  createdAt: '2026-05-06T09:30:00',
});

let files: SystemSettingFile[] = [];
const sent: unknown[] = [];
const server = setupTestServer(
  http.get('*/api/v1/system-settings', () =>
    HttpResponse.json({ data: [message('m1'), message('m2', { key: 'help', status: 'active', value: 'Call us' })] }),
  ),
  http.post('*/api/v1/system-settings', async ({ request }) => {
    const body = (await request.json()) as PortalMessage;
    sent.push({ POST: body });
    return HttpResponse.json(message('m3', body), { status: 201 });
  }),
  http.put('*/api/v1/system-settings/:id', async ({ request, params }) => {
    sent.push({ [`PUT ${String(params.id)}`]: await request.json() });
    return HttpResponse.json(message(String(params.id)));
  }),
  http.delete('*/api/v1/system-settings/:id', ({ params }) => {
    sent.push(`DELETE ${String(params.id)}`);
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('*/api/v1/system-settings/:id/files', () => HttpResponse.json({ files })),
  http.delete('*/api/v1/system-settings/:id/files/:fileId', ({ params }) => {
    sent.push(`DELETE file ${String(params.fileId)}`);
    files = files.filter((f) => f.id !== params.fileId);
    return new HttpResponse(null, { status: 204 });
  }),
);

let ue = setupUser();
beforeEach(() => {
  ue = setupUser();
  files = [file('f1', 'runbook.pdf')];
});
afterEach(() => {
  sent.length = 0;
});

const renderSystem = (route = '/settings/system') =>
  renderWithProviders(
    <>
      <SystemPage />
      <AddressQuery />
    </>,
    { route, session: sessionFor({ isTevora: true, isStaffAdmin: true }) },
  );

describe('portal messages', () => {
  it('lists every message, drafts included, under the Portal messages tab', async () => {
    renderSystem();
    expect(screen.getByText('System Admin', { selector: 'h1' })).toBeInTheDocument();
    const row = (await screen.findByText('Maintenance on Sunday')).closest('tr')!;
    expect(within(row).getByText('Banner')).toBeInTheDocument();
    expect(within(row).getByText('Inactive')).toBeInTheDocument();
    expect(within(row).getByText('9:30AM 5/6/2026')).toBeInTheDocument();
    expect(within(screen.getByText('Call us').closest('tr')!).getByText('Active')).toBeInTheDocument();
  });

  it('previews the HTML live, sanitized: no <script>, no onerror', async () => {
    renderSystem();
    await screen.findByText('Maintenance on Sunday');
    await ue.click(button('New message'));
    const dialog = await findDialog();
    const html =
      '<img src="x.png" onerror="alert(1)"><script>alert(2)</script><b>Back at noon</b> <a href="javascript:alert(3)">link</a>';
    await ue.click(within(dialog).getByLabelText('HTML'));
    await ue.paste(html);
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    await waitFor(() => expect(within(preview).getByText('Back at noon').tagName).toBe('B'));
    expect(preview.innerHTML).not.toMatch(/onerror|<script|alert\(2\)|javascript:/);
    expect(preview.querySelector('img')).toHaveAttribute('src', 'x.png');

    await ue.click(within(dialog).getByLabelText('Active'));
    await ue.click(button('Save message', dialog));
    // the api stores what the admin wrote; every reader sanitizes it before showing it
    await waitFor(() => expect(sent).toEqual([{ POST: { key: 'banner', status: 'active', value: html } }]));
  });

  it('edits and deletes a message after confirmation', async () => {
    renderSystem();
    await screen.findByText('Maintenance on Sunday');
    await ue.click(screen.getByLabelText('Edit Help message m2'));
    const dialog = await findDialog();
    const textarea = within(dialog).getByLabelText('HTML');
    expect(textarea).toHaveValue('Call us');
    await ue.clear(textarea);
    await ue.type(textarea, 'Call 555-0100');
    await ue.click(button('Save message', dialog));
    await waitFor(() =>
      expect(sent).toEqual([{ 'PUT m2': { key: 'help', status: 'active', value: 'Call 555-0100' } }]),
    );

    await ue.click(screen.getByLabelText('Delete Banner message m1'));
    expect(sent).toHaveLength(1);
    await ue.click(button('Delete', await findDialog()));
    await waitFor(() => expect(sent).toContain('DELETE m1'));
  });

  it('lists attached files, downloads one through a signed URL, uploads several at once and deletes one', async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((r) => (release = r));
    server.use(
      http.patch('*/api/v1/system-settings/:id/files', async ({ request }) => {
        const form = await request.formData();
        const uploaded = form.getAll('files') as File[];
        sent.push({ upload: uploaded.map((f) => f.name) });
        await held;
        files = [...files, ...uploaded.map((f, i) => file(`n${i}`, f.name))];
        return HttpResponse.json({ files });
      }),
    );
    renderSystem();
    await screen.findByText('Maintenance on Sunday');
    await ue.click(screen.getByLabelText('Edit Banner message m1'));
    const dialog = await findDialog();
    const signedUrl = '/api/v1/files/f1/content?v=f1&u=u1&e=1778060000&s=signature';
    server.use(
      http.get('*/api/v1/files/:id/signed-url', ({ params }) => {
        sent.push(`SIGN ${String(params.id)}`);
        return HttpResponse.json({ url: signedUrl, name: 'runbook.pdf', expiresAt: '2026-05-06T09:35:00Z' });
      }),
    );
    const clicked: { href: string; download: string }[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    await ue.click(await within(dialog).findByRole('button', { name: 'Download runbook.pdf' }));
    await waitFor(() => expect(clicked).toEqual([{ href: signedUrl, download: 'runbook.pdf' }]));
    expect(sent).toEqual(['SIGN f1']);
    click.mockRestore();
    sent.length = 0;

    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    const chosen = [
      new NodeFile(['a'], 'notes.txt', { type: 'text/plain' }),
      new NodeFile(['b'], 'plan.pdf', { type: 'application/pdf' }),
    ];
    await ue.upload(input, chosen as unknown as File[]);
    expect(await within(dialog).findByText(/Uploading 2 files/)).toBeInTheDocument();
    release();
    expect(await within(dialog).findByText('plan.pdf')).toBeInTheDocument();
    expect(sent).toEqual([{ upload: ['notes.txt', 'plan.pdf'] }]);
    expect(within(dialog).queryByText(/Uploading/)).not.toBeInTheDocument();

    await ue.click(within(dialog).getByLabelText('Delete runbook.pdf'));
    const confirm = await findDialog();
    expect(confirm).not.toBe(dialog);
    await ue.click(button('Delete file', confirm));
    await waitFor(() => expect(sent).toContain('DELETE file f1'));
  });

  it('shows why an upload was refused', async () => {
    server.use(
      http.patch('*/api/v1/system-settings/:id/files', () =>
        HttpResponse.json(
          {
            code: 'validation_failed',
            message: 'Invalid field: files',
            requestId: 'r',
            details: [{ field: 'files', message: 'files: empty.txt is empty' }],
          },
          { status: 400 },
        ),
      ),
    );
    renderSystem();
    await screen.findByText('Maintenance on Sunday');
    await ue.click(screen.getByLabelText('Edit Banner message m1'));
    const dialog = await findDialog();
    await ue.upload(
      dialog.querySelector('input[type="file"]') as HTMLInputElement,
      new NodeFile([''], 'empty.txt') as unknown as File,
    );
    expect(await within(dialog).findByText('files: empty.txt is empty')).toBeInTheDocument();
  });

  it('keeps the inner tab in the address', async () => {
    server.use(http.get('*/api/v1/feature-flags/definitions', () => HttpResponse.json({ results: [] })));
    renderSystem();
    await screen.findByText('Maintenance on Sunday');
    await ue.click(screen.getByText('Feature flags'));
    expect(await screen.findByText('No feature flags yet.')).toBeInTheDocument();
    expect(screen.getByLabelText('query')).toHaveTextContent('?tab=flags');
  });
});
