/**
 * The pieces both task tracker import dialogs show (Settings' "Import template" / "Replace from file",
 * Projects' "Import tasks"): the file field with its drop zone, the refusal's Alert, the template
 * download links, the upload's progress and the footer. Their logic is @portal/shared/web/task-tracker-import.
 * antd comes through the UI kits only (one instance across the federation). Never on the first page.
 */
import { useId, useRef, type CSSProperties, type ReactNode } from 'react';
import { Spin } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  DeleteOutlined,
  DownloadOutlined,
  Flex,
  Form,
  InboxOutlined,
  Progress,
  Space,
  Typography,
} from '@portal/shared/ui/extra';
import { FileTypeIcon } from '@portal/shared/ui/components';
import { formatBytes } from '@portal/shared/core/files';
import { TASK_TRACKER_ACCEPT } from '@portal/shared/core/practices';
import { useFileDrop } from '@portal/shared/web/hooks';
import { fileTemplateUrl, type ProblemReport, type UploadPhase } from '@portal/shared/web/task-tracker-import';

/** A refused import or apply (role alert): the headline, the rows or tasks it names, and "and N more". */
export function ImportProblemAlert({
  report,
  listLabel = 'Problems',
  note,
  style,
}: {
  report: ProblemReport;
  listLabel?: string;
  note?: ReactNode;
  style?: CSSProperties;
}) {
  const listed = report.problems.length > 0;
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      title={report.title}
      description={
        listed || note ? (
          <>
            {listed ? (
              <ul aria-label={listLabel} style={{ margin: 0, paddingInlineStart: 18 }}>
                {report.problems.map((p, i) => (
                  <li key={i}>{p}</li>
                ))}
              </ul>
            ) : null}
            {report.more ? <div>{`and ${report.more} more`}</div> : null}
            {note ? <div style={{ marginTop: 4 }}>{note}</div> : null}
          </>
        ) : undefined
      }
      style={{ marginBottom: 16, ...style }}
    />
  );
}

/** "Download CSV template" and "Download XLSX template": the expected columns with two example rows. */
export function TrackerTemplateLinks({ intro }: { intro?: ReactNode }) {
  return (
    <Space size="middle" wrap style={{ marginBottom: 16 }}>
      {intro ? <Typography.Text type="secondary">{intro}</Typography.Text> : null}
      <a href={fileTemplateUrl('csv')} download>
        <DownloadOutlined aria-hidden /> Download CSV template
      </a>
      <a href={fileTemplateUrl('xlsx')} download>
        <DownloadOutlined aria-hidden /> Download XLSX template
      </a>
    </Space>
  );
}

/**
 * "Task tracker file": a visible native file input (labelled, so getByLabel and setInputFiles reach
 * it) inside a zone that also takes a file dropped, or pasted while the pointer is over it. Must be
 * inside an antd Form (it is a Form.Item); its id is unique on the page. `error` (no file, a name the
 * api refuses, an empty or too large file) shows under it as an alert.
 */
export function TrackerFileField({
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
  onClear?: () => void;
}) {
  const id = `${useId()}task-tracker-file`;
  const picker = useRef<HTMLInputElement>(null);
  const { ref, over } = useFileDrop<HTMLDivElement>((files) => {
    if (!disabled && files.length) onFiles(files);
  });
  return (
    <Form.Item
      label="Task tracker file"
      htmlFor={id}
      required
      validateStatus={error ? 'error' : undefined}
      help={error ? <span role="alert">{error}</span> : undefined}
    >
      <div
        ref={ref}
        data-testid="tracker-drop-zone"
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
          <Flex gap="small" align="center" style={{ marginTop: 8 }} data-testid="chosen-file" aria-label="Chosen file">
            <FileTypeIcon name={file.name} />
            <Typography.Text strong style={{ overflowWrap: 'anywhere' }}>
              {file.name}
            </Typography.Text>
            <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
            {onClear ? (
              <Button
                size="small"
                type="text"
                icon={<DeleteOutlined />}
                disabled={disabled}
                aria-label={`Remove ${file.name}`}
                onClick={onClear}
              />
            ) : null}
          </Flex>
        ) : null}
      </div>
    </Form.Item>
  );
}

/**
 * The dialog's footer. While the file is sent: "Uploading… N%" with a bar and Cancel; once the server
 * has it: "Importing rows…" and "Stop waiting" (the import may still finish). Otherwise the close and
 * submit buttons; submit stays disabled while the list is read again after a stop, and shows loading
 * while `submitting` (checks before sending).
 */
export function TrackerImportFooter({
  phase,
  onCancel,
  onClose,
  closeLabel = 'Cancel',
  submitLabel,
  onSubmit,
  submitting = false,
}: {
  phase: UploadPhase;
  onCancel: () => void;
  onClose: () => void;
  closeLabel?: string;
  submitLabel: string;
  onSubmit: () => void;
  submitting?: boolean;
}) {
  if (phase.step === 'uploading' || phase.step === 'importing') {
    return (
      <Flex gap="middle" align="center">
        <div role="status" aria-live="polite" style={{ flex: 1, textAlign: 'start' }}>
          {phase.step === 'uploading' ? (
            <>
              <div>{`Uploading… ${phase.percent}%`}</div>
              <Progress
                percent={phase.percent}
                status="active"
                showInfo={false}
                aria-label="Upload progress"
                style={{ margin: 0 }}
              />
            </>
          ) : (
            <Space>
              <Spin size="small" />
              Importing rows…
            </Space>
          )}
        </div>
        <Button onClick={onCancel}>{phase.step === 'importing' ? 'Stop waiting' : 'Cancel'}</Button>
      </Flex>
    );
  }
  const refreshing = phase.step === 'refreshing';
  return (
    <Flex gap="small" justify="flex-end" align="center">
      {refreshing ? (
        <Typography.Text type="secondary" role="status" style={{ marginInlineEnd: 'auto' }}>
          Reading the list again…
        </Typography.Text>
      ) : null}
      <Button onClick={onClose}>{closeLabel}</Button>
      <Button type="primary" disabled={refreshing} loading={submitting} onClick={onSubmit}>
        {submitLabel}
      </Button>
    </Flex>
  );
}
