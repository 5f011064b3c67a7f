/**
 * The page's files: the report shown as CSV or XLSX, every report as one PDF (all for the filters shown),
 * and the browser's print of the page. One download at a time: while one runs, its button spins and
 * every download button is disabled; a failure is said beside them (the toast says why).
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { DownloadOutlined, Flex, Typography } from '@portal/shared/ui/extra';
import type { ReportKind } from '@portal/shared/core/reports';
import { downloadFromApi } from '@portal/shared/web/download';
import { exportPath, fallbackFileName, pdfPath, type ReportsPageState } from '../model/report-state';

type FileFormat = 'csv' | 'xlsx' | 'pdf';

const LABELS: Record<FileFormat, string> = { csv: 'Download CSV', xlsx: 'Download XLSX', pdf: 'Download PDF' };

export function ReportDownloads({
  company,
  kind,
  state,
  today,
}: {
  company: { id: string; name: string };
  /** The report shown (null: none yet, or none at all: no file to give). */
  kind: ReportKind | null;
  state: ReportsPageState;
  today: string;
}) {
  const [running, setRunning] = useState<FileFormat | null>(null);
  const [failed, setFailed] = useState(false);
  const controller = useRef<AbortController | null>(null);
  // leaving the page stops a download under way
  useEffect(() => () => controller.current?.abort(), []);

  const run = async (format: FileFormat) => {
    if (!kind || running) return;
    setRunning(format);
    setFailed(false);
    const abort = new AbortController();
    controller.current = abort;
    const [path, name] =
      format === 'pdf'
        ? [pdfPath(company.id, state, today), fallbackFileName('all', company, today, 'pdf')]
        : [exportPath(company.id, kind, state, today, format), fallbackFileName(kind, company, today, format)];
    try {
      const started = await downloadFromApi(path, name, { signal: abort.signal });
      if (!started && !abort.signal.aborted) setFailed(true);
    } catch {
      // its code did not load (a deploy replaced the chunk, the network dropped): nothing was said yet
      if (!abort.signal.aborted) setFailed(true);
    } finally {
      if (!abort.signal.aborted) setRunning(null);
      controller.current = null;
    }
  };

  return (
    <Flex className="reports-screen-controls" gap="small" wrap align="center" justify="flex-end">
      {failed ? (
        <Typography.Text type="danger" role="alert">
          The download failed. Try again.
        </Typography.Text>
      ) : null}
      {(Object.keys(LABELS) as FileFormat[]).map((format) => (
        <Button
          key={format}
          icon={<DownloadOutlined aria-hidden />}
          loading={running === format}
          aria-busy={running === format || undefined}
          disabled={!kind || running !== null}
          onClick={() => void run(format)}
        >
          {LABELS[format]}
        </Button>
      ))}
      <Button onClick={() => window.print()}>Print</Button>
    </Flex>
  );
}
