/**
 * "Import requests": a request file (.csv or .xlsx) into the selected company, with the task tracker
 * imports' look and behaviour. The file is checked before anything is sent; the upload shows its
 * progress, then the server's work; Cancel aborts the upload, "Stop waiting" stops waiting for an
 * import the server may still finish (the list is read again before another import). The import is all
 * or nothing: a refusal lists the rows and columns it names and nothing is created.
 */
import { useId, useRef, useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  DeleteOutlined,
  DownloadOutlined,
  Flex,
  Form,
  InboxOutlined,
  Modal,
  Space,
  Typography,
} from '@portal/shared/ui/extra';
import { FileTypeIcon } from '@portal/shared/ui/components';
import { formatBytes } from '@portal/shared/core/files';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import { TASK_TRACKER_ACCEPT, TASK_TRACKER_MAX_BYTES, taskTrackerFileProblem } from '@portal/shared/core/practices';
import {
  REQUEST_FILE_IMPORTED_COLUMNS,
  type RequestFileFormat,
  type RequestImportResult,
} from '@portal/shared/core/requests';
import { API_BASE } from '@portal/shared/web/api';
import { publishToast } from '@portal/shared/web/events';
import { useFileDrop, useStrayFileDropGuard } from '@portal/shared/web/hooks';
import { useStore } from '@portal/shared/web/store';
import { uploadForm, type UploadOptions } from '@portal/shared/web/upload';
import {
  invalidateAndWait,
  uploadProblemReport,
  useUploadPhase,
  type ProblemReport,
} from '@portal/shared/web/task-tracker-import';
import { ImportProblemAlert, TrackerImportFooter } from '@portal/shared/ui/task-tracker-import';
import { countOf } from '../../../app/labels';
import { REQUESTS_IMPORT_TAGS } from '../../../app/requests-api';

/** Why `file` cannot be imported (the api's words for a wrong name), or null. The api checks again, and the content. */
export function requestFileProblem(file: { name: string; size: number }): string | null {
  const code = taskTrackerFileProblem(file.name);
  if (code) return ERROR_MESSAGES[code];
  if (file.size === 0) return `${file.name} is empty: there is nothing to import.`;
  if (file.size > TASK_TRACKER_MAX_BYTES)
    return `${file.name} is larger than ${formatBytes(TASK_TRACKER_MAX_BYTES)}, the most a request file may be.`;
  return null;
}

export const requestFileTemplateUrl = (companyId: string, format: RequestFileFormat) =>
  `${API_BASE}/companies/${encodeURIComponent(companyId)}/requests/file-template?format=${format}`;

export function importRequestsFile(
  companyId: string,
  file: File,
  options: UploadOptions,
): Promise<RequestImportResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadForm<RequestImportResult>(`/companies/${encodeURIComponent(companyId)}/requests/import`, form, options);
}

/** "Requests file": a visible, labelled file input inside a zone that also takes a file dropped or pasted over it. */
function RequestFileField({
  file,
  error,
  disabled,
  onFiles,
  onClear,
}: {
  file: File | null;
  error: string | null;
  disabled: boolean;
  onFiles: (files: File[]) => void;
  onClear: () => void;
}) {
  const id = `${useId()}request-file`;
  const picker = useRef<HTMLInputElement>(null);
  const { ref, over } = useFileDrop<HTMLDivElement>((files) => {
    if (!disabled && files.length) onFiles(files);
  });
  return (
    <Form.Item
      label="Requests file"
      htmlFor={id}
      required
      validateStatus={error ? 'error' : undefined}
      help={error ? <span role="alert">{error}</span> : undefined}
    >
      <div
        ref={ref}
        data-testid="request-file-drop-zone"
        data-drag-over={over || undefined}
        style={{
          border: `1px dashed ${over ? '#1677ff' : '#d9d9d9'}`,
          background: over ? 'rgba(22, 119, 255, 0.06)' : undefined,
          borderRadius: 8,
          padding: 16,
        }}
      >
        <Flex gap="small" align="center" style={{ marginBottom: 8 }}>
          <InboxOutlined style={{ fontSize: 24, color: '#1677ff' }} aria-hidden />
          <Typography.Text type="secondary">
            Drop a .csv or .xlsx file here (or paste it while the pointer is over this box), or choose one.
          </Typography.Text>
        </Flex>
        {/* the browser's own control would say "No file chosen" beside the chosen file: a button opens it */}
        <input
          ref={picker}
          id={id}
          type="file"
          hidden
          accept={TASK_TRACKER_ACCEPT}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            // the same file chosen again (after fixing it) is a new choice
            e.target.value = '';
            if (files.length) onFiles(files);
          }}
        />
        <Button size="small" disabled={disabled} onClick={() => picker.current?.click()}>
          {file ? 'Choose another file' : 'Choose a file'}
        </Button>
        {file ? (
          <Flex gap="small" align="center" style={{ marginTop: 8 }} aria-label="Chosen file">
            <FileTypeIcon name={file.name} />
            <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
              {file.name}
            </Typography.Text>
            <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
            <Button
              size="small"
              type="text"
              icon={<DeleteOutlined />}
              disabled={disabled}
              aria-label={`Remove ${file.name}`}
              onClick={onClear}
            />
          </Flex>
        ) : null}
      </div>
    </Form.Item>
  );
}

export function ImportRequestsDialog({ companyId, onClose }: { companyId: string; onClose: () => void }) {
  const store = useStore();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [report, setReport] = useState<ProblemReport | null>(null);
  const upload = useUploadPhase({ refresh: () => invalidateAndWait(store, REQUESTS_IMPORT_TAGS) });
  // a second click while the first is under way does nothing
  const inFlight = useRef(false);
  // a file dropped beside the box does not replace the portal
  useStrayFileDropGuard();

  const pick = (files: File[]) => {
    setReport(null);
    upload.clearNotice();
    if (files.length > 1) {
      setFileError('Choose one file: requests are imported from one file at a time.');
      return;
    }
    const problem = requestFileProblem(files[0]);
    setFileError(problem);
    setFile(problem ? null : files[0]);
  };

  const submit = async () => {
    if (inFlight.current || upload.busy) return;
    if (!file) {
      if (!fileError) setFileError('Choose a .csv or .xlsx file.');
      return;
    }
    inFlight.current = true;
    setReport(null);
    try {
      const outcome = await upload.run((options) => importRequestsFile(companyId, file, options));
      if (outcome.ok) {
        void invalidateAndWait(store, REQUESTS_IMPORT_TAGS);
        publishToast({ severity: 'success', summary: `${countOf(outcome.value.created)} imported` });
        onClose();
      } else if (!outcome.canceled) {
        setReport(uploadProblemReport(outcome.error, 'The file could not be imported. Try again.'));
      }
    } finally {
      inFlight.current = false;
    }
  };

  return (
    <Modal
      open
      title="Import requests"
      width={640}
      // while the file is sent or imported, only the footer's button stops it: Escape, the mask and
      // the close button do not abort silently
      keyboard={!upload.sending}
      closable={!upload.sending}
      mask={{ closable: !upload.sending }}
      onCancel={upload.sending ? undefined : onClose}
      footer={
        <TrackerImportFooter
          phase={upload.phase}
          onCancel={upload.cancel}
          onClose={onClose}
          submitLabel="Import"
          onSubmit={() => void submit()}
        />
      }
    >
      {report ? <ImportProblemAlert report={report} /> : null}
      {upload.notice ? <Alert type="info" showIcon title={upload.notice} style={{ marginBottom: 16 }} /> : null}
      <Typography.Paragraph>
        {`Each row of the file is a new open request. The columns read: ${REQUEST_FILE_IMPORTED_COLUMNS.join(', ')}; only Title is required. Assignees are e-mails of the company's members or team names, separated by semicolons. The file is imported whole or not at all.`}
      </Typography.Paragraph>
      <Space size="middle" wrap style={{ marginBottom: 16 }}>
        <a href={requestFileTemplateUrl(companyId, 'csv')} download>
          <DownloadOutlined aria-hidden /> CSV template
        </a>
        <a href={requestFileTemplateUrl(companyId, 'xlsx')} download>
          <DownloadOutlined aria-hidden /> XLSX template
        </a>
      </Space>
      <Form name="import-requests" layout="vertical" component="div">
        <RequestFileField
          file={file}
          error={fileError}
          disabled={upload.busy}
          onFiles={pick}
          onClear={() => {
            setFile(null);
            setFileError(null);
          }}
        />
      </Form>
    </Modal>
  );
}
