/**
 * Files (issue 6), in a real browser against the real server: a consultant drags a file onto a folder
 * and watches it upload, pastes a file, moves a folder and is refused moving one into its own
 * subfolder, downloads through a signed URL; altered and expired signed URLs are refused; a client of
 * another company gets 404 for the file and for its URL; an uploaded HTML page with a script is only
 * ever downloaded, never run in the portal's origin. The tests share one server and run in order.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { startPortal, type RunningPortal } from '../portal-server';
import { apiAs, expect, openAs, signIn, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const DROP_FOLDER = `E2E Drop ${RUN}`;
const PARENT = `E2E Parent ${RUN}`;
const CHILD = `E2E Child ${RUN}`;
const OTHER = `E2E Other ${RUN}`;
const DROPPED = `dropped-evidence-${RUN}.txt`;
const PASTED = `pasted-note-${RUN}.txt`;
const EVIL = `evil-${RUN}.html`;

let consultantApi: APIRequestContext;
let projectId = '';
let rootId = '';
const folderIds: Record<string, string> = {};

interface FolderJson {
  id: string;
  name: string;
  parentId: string | null;
}
interface FileJson {
  id: string;
  name: string;
  folderId: string;
  size: number;
}

async function folders(): Promise<FolderJson[]> {
  const res = await consultantApi.get(`/api/v1/projects/${projectId}/folders`);
  expect(res.status()).toBe(200);
  return (await res.json()).results;
}

async function filesIn(folderId: string): Promise<FileJson[]> {
  const res = await consultantApi.get(`/api/v1/projects/${projectId}/files?folderId=${folderId}&pageSize=200`);
  expect(res.status()).toBe(200);
  return (await res.json()).results;
}

async function createFolder(name: string, parentId: string): Promise<string> {
  const res = await consultantApi.post(`/api/v1/projects/${projectId}/folders`, { data: { name, parentId } });
  expect(res.status(), `create folder ${name}`).toBe(201);
  return (await res.json()).id;
}

/**
 * Chooses a folder in the Move dialog's tree picker. A click that lands while the dropdown is still
 * opening can miss its node and leave the list open over the dialog's buttons: pick again until the
 * list has closed on a choice (the test then reads the move back from the api).
 */
async function pickFolder(page: Page, dialog: Locator, name: string) {
  const open = page.locator('.ant-select-dropdown:visible');
  await expect(async () => {
    if ((await open.count()) === 0) await dialog.getByLabel('Move to').click();
    await open
      .locator('.ant-select-tree-node-content-wrapper')
      .filter({ hasText: name })
      .first()
      .click({ timeout: 2000 });
    await expect(open).toHaveCount(0, { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
}

const filesUrl = (folderId?: string) =>
  `/v2/projects/${projectId}?view=files${folderId ? `&folderId=${folderId}` : ''}`;

/** A DataTransfer holding one text file, made in the page (what a drag from the desktop or a paste carries). */
function fileTransfer(page: Page, name: string, sizeBytes: number) {
  return page.evaluateHandle(
    ({ name, sizeBytes }) => {
      const transfer = new DataTransfer();
      const line = 'evidence line for the e2e upload\n';
      transfer.items.add(
        new File([line.repeat(Math.ceil(sizeBytes / line.length)).slice(0, sizeBytes)], name, { type: 'text/plain' }),
      );
      return transfer;
    },
    { name, sizeBytes },
  );
}

test.beforeAll(async () => {
  consultantApi = await apiAs('consultant@demo.test');
  const acme = (await (await consultantApi.get('/api/v1/companies?ignorePagination=true')).json()).results.find(
    (c: { name: string }) => c.name === 'Acme Corp',
  );
  const list = await (await consultantApi.get(`/api/v1/companies/${acme.id}/projects?search=ISO%2027001`)).json();
  projectId = list.results[0].id;
  rootId = (await folders()).find((f) => f.parentId === null)!.id;
  folderIds[DROP_FOLDER] = await createFolder(DROP_FOLDER, rootId);
  folderIds[PARENT] = await createFolder(PARENT, rootId);
  folderIds[CHILD] = await createFolder(CHILD, folderIds[PARENT]);
  folderIds[OTHER] = await createFolder(OTHER, rootId);
});

test('a file dragged onto a folder shows its progress, then the file is in that folder', async ({ page }) => {
  await openAs(page, 'consultant@demo.test', filesUrl());
  const folderRow = page.getByTestId(`folder-${DROP_FOLDER}`);
  await expect(folderRow).toBeVisible();

  // a slow uplink, so the progress is there to be seen
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  });

  const transfer = await fileTransfer(page, DROPPED, 3 * 1024 * 1024);
  await folderRow.dispatchEvent('dragenter', { dataTransfer: transfer });
  await folderRow.dispatchEvent('dragover', { dataTransfer: transfer });
  await folderRow.dispatchEvent('drop', { dataTransfer: transfer });

  const upload = page.getByTestId(`upload-${DROPPED}`);
  // on its way (bytes counted against the total), with its bar, then done
  await expect(upload).toHaveAttribute('data-status', 'uploading');
  await expect(page.getByLabel(`${DROPPED} progress`)).toBeVisible();
  await expect(upload).toContainText(/ of 3 MB/);
  await expect(upload).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  // the file is in the folder it was dropped on, and not in the folder on screen
  const inFolder = await filesIn(folderIds[DROP_FOLDER]);
  expect(inFolder.map((f) => [f.name, f.size])).toEqual([[DROPPED, 3 * 1024 * 1024]]);
  expect((await filesIn(rootId)).map((f) => f.name)).not.toContain(DROPPED);
  await folderRow.getByRole('link', { name: DROP_FOLDER }).click();
  await expect(page).toHaveURL(new RegExp(`folderId=${folderIds[DROP_FOLDER]}`));
  await expect(page.getByTestId(`file-${DROPPED}`)).toBeVisible();
});

test('a file pasted while the pointer is over the files uploads into the folder on screen', async ({ page }) => {
  await openAs(page, 'consultant@demo.test', filesUrl(folderIds[OTHER]));
  const target = page.getByTestId('files-drop-target');
  await expect(target).toBeVisible();

  // pasting with the pointer elsewhere does nothing
  await page.getByRole('heading').first().hover();
  const elsewhere = await fileTransfer(page, `ignored-${RUN}.txt`, 100);
  await page.evaluate(
    (data) => document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true })),
    elsewhere,
  );

  await target.hover();
  const transfer = await fileTransfer(page, PASTED, 2048);
  await page.evaluate(
    (data) => document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true })),
    transfer,
  );
  await expect(page.getByTestId(`upload-${PASTED}`)).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId(`file-${PASTED}`)).toBeVisible();
  expect((await filesIn(folderIds[OTHER])).map((f) => f.name)).toEqual([PASTED]);
  await expect(page.getByTestId(`upload-ignored-${RUN}.txt`)).toHaveCount(0);
});

test('a folder moves into another; moving a folder into its own subfolder is refused with the message', async ({
  page,
}) => {
  await openAs(page, 'consultant@demo.test', filesUrl());
  await page.getByRole('button', { name: `Move ${OTHER}` }).click();
  let dialog = page.getByRole('dialog', { name: `Move the folder ${OTHER}` });
  await pickFolder(page, dialog, PARENT);
  await dialog.getByRole('button', { name: 'Move' }).click();
  await expect(dialog).toBeHidden();
  expect((await folders()).find((f) => f.id === folderIds[OTHER])!.parentId).toBe(folderIds[PARENT]);
  await expect(page.getByTestId(`folder-${OTHER}`)).toHaveCount(0);

  await page.getByRole('button', { name: `Move ${PARENT}` }).click();
  dialog = page.getByRole('dialog', { name: `Move the folder ${PARENT}` });
  await pickFolder(page, dialog, CHILD);
  await dialog.getByRole('button', { name: 'Move' }).click();
  await expect(dialog.getByText('A folder cannot be moved into itself or one of its subfolders.')).toBeVisible();
  await expect(dialog).toBeVisible();
  // nothing moved
  expect((await folders()).find((f) => f.id === folderIds[PARENT])!.parentId).toBe(rootId);
});

test('a file downloads through its signed URL, as an attachment with its bytes', async ({ page }) => {
  await openAs(page, 'consultant@demo.test', filesUrl(folderIds[OTHER]));
  const signed = page.waitForResponse((res) => res.url().includes('/signed-url'));
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download ${PASTED}` }).click();
  expect((await signed).status()).toBe(200);
  const file = await download;
  expect(file.suggestedFilename()).toBe(PASTED);
  expect(file.url()).toMatch(/\/api\/v1\/files\/[^/]+\/content\?/);
  const path = await file.path();
  const { readFileSync } = await import('node:fs');
  expect(readFileSync(path!, 'utf8')).toMatch(/^evidence line for the e2e upload\n/);
  expect(readFileSync(path!).length).toBe(2048);
});

test("an altered signed URL is refused, and another company's client gets 404 for the file and its URL", async ({
  page,
}) => {
  const [file] = await filesIn(folderIds[OTHER]);
  await openAs(page, 'consultant@demo.test', filesUrl(folderIds[OTHER]));
  const signed = await page.request.get(`/api/v1/files/${file.id}/signed-url`, {
    headers: { 'X-Portal-Client': 'web' },
  });
  expect(signed.status()).toBe(200);
  const { url } = await signed.json();
  expect((await page.request.get(url)).status()).toBe(200);

  const altered = new URL(url, 'http://portal');
  const s = altered.searchParams.get('s')!;
  altered.searchParams.set('s', `${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`);
  const badSignature = await page.request.get(`${altered.pathname}${altered.search}`);
  expect(badSignature.status()).toBe(403);
  expect((await badSignature.json()).code).toBe('signed_url_invalid');
  const later = new URL(url, 'http://portal');
  later.searchParams.set('e', String(Number(later.searchParams.get('e')) + 3600));
  expect((await page.request.get(`${later.pathname}${later.search}`)).status()).toBe(403);

  const globexApi = await apiAs('client@globex.test');
  expect((await globexApi.get(`/api/v1/projects/${projectId}/files/${file.id}`)).status()).toBe(404);
  expect((await globexApi.get(`/api/v1/files/${file.id}/signed-url`)).status()).toBe(404);
  expect((await globexApi.get(url)).status()).toBe(404);
  expect((await globexApi.get(`/api/v1/projects/${projectId}/files?folderId=${folderIds[OTHER]}`)).status()).toBe(404);
});

test('an expired signed URL is refused', async ({ browser }) => {
  // a portal of its own whose links live 5 s
  const portal: RunningPortal = await startPortal({ SIGNED_URL_TTL_SECONDS: '5' });
  try {
    const context = await browser.newContext({ baseURL: portal.baseURL });
    const page = await context.newPage();
    await page.goto('/auth/saml/login');
    await signIn(page, 'consultant@demo.test');
    const acme = (await (await page.request.get('/api/v1/companies?ignorePagination=true')).json()).results.find(
      (c: { name: string }) => c.name === 'Acme Corp',
    );
    const documents = await (await page.request.get(`/api/v1/companies/${acme.id}/files?pageSize=1`)).json();
    const fileId = documents.results[0].id;
    const { url } = await (
      await page.request.get(`/api/v1/files/${fileId}/signed-url`, { headers: { 'X-Portal-Client': 'web' } })
    ).json();
    expect((await page.request.get(url)).status()).toBe(200);
    await page.waitForTimeout(6500);
    const expired = await page.request.get(url);
    expect(expired.status()).toBe(403);
    expect((await expired.json()).code).toBe('signed_url_expired');
    await context.close();
  } finally {
    await portal.stop();
  }
});

test('an uploaded HTML page with a script is downloaded, never run in the portal origin', async ({ page }) => {
  await openAs(page, 'consultant@demo.test', filesUrl(folderIds[DROP_FOLDER]));
  const script = `<!doctype html><html><body><h1>evil</h1><script>
    try { localStorage.setItem('e2e-pwned', '1'); } catch (e) {}
    try { window.parent.__e2ePwned = true; } catch (e) {}
    document.title = 'pwned';
    fetch('/api/v1/users/profile/me').then(function (r) { return r.text(); }).then(function (t) { localStorage.setItem('e2e-stolen', t); });
  </script></body></html>`;
  // the folder on screen is known (until then the page uploads nothing and says so)
  await expect(
    page.getByRole('region', { name: `Drop or paste files here to upload them to ${DROP_FOLDER}` }),
  ).toBeVisible();
  await page
    .getByLabel('Files to upload')
    .setInputFiles({ name: EVIL, mimeType: 'text/html', buffer: Buffer.from(script) });
  await expect(page.getByTestId(`upload-${EVIL}`)).toHaveAttribute('data-status', 'done');
  const evil = (await filesIn(folderIds[DROP_FOLDER])).find((f) => f.name === EVIL)!;

  // a file the api refuses (its bytes are not a PDF) is listed with its own size, not its request's
  const forged = 'forged.pdf';
  const forgedBytes = Buffer.from('This is plain text, not a PDF at all.');
  expect(forgedBytes.length).toBe(37);
  await page
    .getByLabel('Files to upload')
    .setInputFiles({ name: forged, mimeType: 'application/pdf', buffer: forgedBytes });
  const refused = page.getByTestId(`upload-${forged}`);
  await expect(refused).toHaveAttribute('data-status', 'error');
  await expect(refused).toContainText('· 37 B');

  // the portal's own download: an attachment, not a page
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download ${EVIL}` }).click();
  expect((await download).suggestedFilename()).toBe(EVIL);

  // the headers that keep it from running anywhere it lands
  const { url } = await (
    await page.request.get(`/api/v1/files/${evil.id}/signed-url`, { headers: { 'X-Portal-Client': 'web' } })
  ).json();
  const served = await page.request.get(url);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-disposition']).toMatch(/^attachment;/);
  expect(served.headers()['x-content-type-options']).toBe('nosniff');
  expect(served.headers()['content-security-policy']).toContain('sandbox');
  expect(await served.text()).toContain('<script>');

  // opened in the page (a link, a frame): still a download, the script never runs
  const second = (
    await (
      await page.request.get(`/api/v1/files/${evil.id}/signed-url`, { headers: { 'X-Portal-Client': 'web' } })
    ).json()
  ).url;
  const framed = page.waitForEvent('download');
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    document.body.appendChild(frame);
  }, second);
  await framed;
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => localStorage.getItem('e2e-pwned'))).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('e2e-stolen'))).toBeNull();
  expect(await page.evaluate(() => (window as unknown as { __e2ePwned?: boolean }).__e2ePwned)).toBeUndefined();
  expect(await page.title()).not.toBe('pwned');
});
