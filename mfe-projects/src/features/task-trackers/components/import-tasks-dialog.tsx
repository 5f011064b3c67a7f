/**
 * "Import tasks": a task tracker file (.csv or .xlsx) straight into the project. The name is checked
 * before anything is sent; the upload shows its progress, then the server's work; Cancel aborts. The
 * import is all or nothing: a refusal lists the rows it names and nothing is created.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '@portal/shared/ui';
import { Alert, DeleteOutlined, DownloadOutlined, Flex, Form, InboxOutlined, Modal, Progress, Space, Typography } from '@portal/shared/ui/extra';
import { FileTypeIcon } from '@portal/shared/ui/components';
import { publishToast } from '@portal/shared/web/events';
import { useFileDrop, useStrayFileDropGuard } from '@portal/shared/web/hooks';
import { useDispatch } from '@portal/shared/web/store';
import { formatBytes } from '@portal/shared/core/files';
import { TASK_TRACKER_ACCEPT, TASK_TRACKER_COLUMNS } from '@portal/shared/core/practices';
import type { Project } from '@portal/shared/core/projects';
import { UploadError } from '../../../app/upload';
import { fileTemplateUrl, importTrackerFile, taskTrackersApi, TRACKER_CHANGES } from '../api/task-trackers-api';
import { problemReport, type ProblemReport } from '../model/problems';
import { countOf, trackerFileProblem } from '../model/tracker-file';
import { ProblemAlert } from './problem-alert';

const INPUT_ID = 'import-tasks-file';

type Phase = { step: 'idle' } | { step: 'uploading'; percent: number } | { step: 'importing' };

/** Where the file is dropped, pasted or chosen. */
function FileDropZone({ file, disabled, onFiles, onClear }: { file: File | null; disabled: boolean; onFiles: (files: File[]) => void; onClear: () => void }) {
  const { ref, over } = useFileDrop<HTMLDivElement>((files) => {
    if (!disabled) onFiles(files);
  });
  const input = useRef<HTMLInputElement>(null);
  return (
    <div
      ref={ref}
      data-testid="tracker-drop-zone"
      data-drag-over={over || undefined}
      style={{
        border: `1px dashed ${over ? '#1677ff' : '#d9d9d9'}`,
        background: over ? 'rgba(22, 119, 255, 0.06)' : undefined,
        borderRadius: 8,
        padding: 16,
        textAlign: 'center',
      }}
    >
      <input
        ref={input}
        id={INPUT_ID}
        type="file"
        accept={TASK_TRACKER_ACCEPT}
        hidden
        disabled={disabled}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          // the same file chosen again (after fixing it) is a new choice
          e.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      {file ? (
        <Flex gap="small" align="center" justify="center" aria-label="Chosen file">
          <FileTypeIcon name={file.name} />
          <span style={{ overflowWrap: 'anywhere' }}>{file.name}</span>
          <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
          <Button size="small" type="text" icon={<DeleteOutlined />} disabled={disabled} aria-label={`Remove ${file.name}`} onClick={onClear} />
        </Flex>
      ) : (
        <>
          <InboxOutlined style={{ fontSize: 28, color: '#1677ff' }} aria-hidden />
          <p style={{ margin: '8px 0' }}>Drop a .csv or .xlsx file here, or paste it while the pointer is over this box.</p>
        </>
      )}
      <Button onClick={() => input.current?.click()} disabled={disabled} style={{ marginTop: 8 }}>
        {file ? 'Choose another file' : 'Choose a file'}
      </Button>
    </div>
  );
}

export function ImportTasksDialog({ project, onClose }: { project: Project; onClose: () => void }) {
  const dispatch = useDispatch();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [report, setReport] = useState<ProblemReport | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const sending = useRef<AbortController | null>(null);
  // a file dropped beside the box does not replace the portal
  useStrayFileDropGuard();
  // leaving (the dialog unmounts with the page) stops the upload
  useEffect(() => () => sending.current?.abort(), []);

  const busy = phase.step !== 'idle';

  const pick = (files: File[]) => {
    setReport(null);
    setNotice(null);
    if (files.length > 1) {
      setFileError('Choose one file: tasks are imported from one task tracker file at a time.');
      return;
    }
    const problem = trackerFileProblem(files[0]);
    setFileError(problem);
    setFile(problem ? null : files[0]);
  };

  const cancel = () => sending.current?.abort();

  const submit = async () => {
    if (!file) {
      if (!fileError) setFileError('Choose a .csv or .xlsx file.');
      return;
    }
    const problem = trackerFileProblem(file);
    if (problem) {
      setFileError(problem);
      return;
    }
    const controller = new AbortController();
    sending.current = controller;
    setReport(null);
    setNotice(null);
    setPhase({ step: 'uploading', percent: 0 });
    let sent = false;
    try {
      const result = await importTrackerFile(project.id, file, {
        signal: controller.signal,
        onProgress: (done, total) => {
          sent = total > 0 && done >= total;
          setPhase(sent ? { step: 'importing' } : { step: 'uploading', percent: total ? Math.floor((done / total) * 100) : 0 });
        },
      });
      sending.current = null;
      dispatch(taskTrackersApi.util.invalidateTags([...TRACKER_CHANGES]));
      publishToast({ severity: 'success', summary: `Imported ${countOf(result.tasks, 'task')}` });
      onClose();
      return;
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') {
        if (sent) {
          // the server had the whole file: it may finish the import all the same
          dispatch(taskTrackersApi.util.invalidateTags([...TRACKER_CHANGES]));
          setNotice('Canceled after the file was sent: the import may still finish. Check the task list before importing again.');
        } else setNotice('The import was canceled. Nothing was imported.');
      } else if (e instanceof UploadError) {
        setReport(problemReport(e, 'The file could not be imported. Try again.'));
      } else {
        setReport({ title: 'The file could not be imported. Try again.', problems: [], more: 0 });
      }
    }
    sending.current = null;
    setPhase({ step: 'idle' });
  };

  const footer = busy ? (
    <Flex gap="middle" align="center">
      <Progress
        percent={phase.step === 'uploading' ? phase.percent : 100}
        status="active"
        showInfo={false}
        style={{ flex: 1, margin: 0 }}
        aria-label={phase.step === 'uploading' ? 'Uploading the file' : 'Importing rows'}
      />
      <span role="status" style={{ minWidth: 120, textAlign: 'start' }}>
        {phase.step === 'uploading' ? `Uploading… ${phase.percent}%` : 'Importing rows…'}
      </span>
      <Button onClick={cancel}>Cancel</Button>
    </Flex>
  ) : (
    <Flex gap="small" justify="flex-end">
      <Button onClick={onClose}>Close</Button>
      <Button type="primary" onClick={() => void submit()}>
        Import
      </Button>
    </Flex>
  );

  return (
    <Modal open title="Import tasks" width={640} mask={{ closable: !busy }} onCancel={busy ? cancel : onClose} footer={footer}>
      {report ? <ProblemAlert report={report} /> : null}
      {notice ? <Alert type="info" showIcon title={notice} style={{ marginBottom: 16 }} /> : null}
      <Typography.Paragraph>
        {`Each row of the file is a task or a subtask (its Parent Task ID names the task). The columns: ${TASK_TRACKER_COLUMNS.join(', ')}; only Task Title is required. The file is imported whole or not at all: a Task ID the project already has is refused.`}
      </Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <a href={fileTemplateUrl('csv')} download>
          <DownloadOutlined aria-hidden /> Download CSV template
        </a>
        <a href={fileTemplateUrl('xlsx')} download>
          <DownloadOutlined aria-hidden /> Download XLSX template
        </a>
      </Space>
      <Form layout="vertical" component="div">
        <Form.Item label="Task tracker file" htmlFor={INPUT_ID} required validateStatus={fileError ? 'error' : undefined} help={fileError ?? undefined} style={{ marginBottom: 0 }}>
          <FileDropZone
            file={file}
            disabled={busy}
            onFiles={pick}
            onClear={() => {
              setFile(null);
              setFileError(null);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
