/**
 * "Export": every request the list's filters pick (all pages, in its sort) as a CSV or XLSX file. The
 * button spins while the file is fetched; a failure is said beside it (the toast says why).
 */
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from '@portal/shared/web/router';
import { DownOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Dropdown } from '@portal/shared/ui/menus';
import { Typography } from '@portal/shared/ui/extra';
import type { RequestFileFormat } from '@portal/shared/core/requests';
import { downloadFromApi } from '@portal/shared/web/download';
import { exportPath, listStateFrom } from '../model/list-state';

export function ExportMenu({ companyId }: { companyId: string }) {
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const controller = useRef<AbortController | null>(null);
  // leaving the page stops a download under way
  useEffect(() => () => controller.current?.abort(), []);

  const run = async (format: RequestFileFormat) => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    const abort = new AbortController();
    controller.current = abort;
    try {
      const started = await downloadFromApi(
        exportPath(companyId, listStateFrom(params), format),
        `requests.${format}`,
        { signal: abort.signal },
      );
      if (!started && !abort.signal.aborted) setFailed(true);
    } finally {
      if (!abort.signal.aborted) setBusy(false);
      controller.current = null;
    }
  };

  return (
    <>
      {failed ? (
        <Typography.Text type="danger" role="alert">
          The export failed. Try again.
        </Typography.Text>
      ) : null}
      <Dropdown
        disabled={busy}
        trigger={['click']}
        menu={{
          items: [
            { key: 'csv', label: 'Export CSV' },
            { key: 'xlsx', label: 'Export XLSX' },
          ],
          onClick: ({ key }) => void run(key as RequestFileFormat),
        }}
      >
        <Button loading={busy} aria-busy={busy || undefined}>
          Export <DownOutlined aria-hidden />
        </Button>
      </Dropdown>
    </>
  );
}
