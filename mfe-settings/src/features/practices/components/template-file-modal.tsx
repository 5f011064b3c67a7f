/**
 * "Import template" (a new draft template of a practice from a task tracker file) and "Replace from
 * file" (a draft's content replaced). The file is sent with its upload progress, then the dialog says
 * the rows are being imported; Cancel aborts. The file name is checked before sending; the api's
 * refusal (a malformed file, duplicate Task IDs...) stays in the dialog with the rows it names.
 */
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { useDispatch } from '@portal/shared/web/store';
import { Button, Spin } from '@portal/shared/ui';
import { Alert, DownloadOutlined, Flex, Form, InboxOutlined, Input, Modal, Progress, Space, Typography } from '@portal/shared/ui/extra';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import { formatBytes } from '@portal/shared/core/files';
import {
  TASK_TRACKER_ACCEPT,
  TASK_TRACKER_MAX_BYTES,
  taskTrackerCreateSchema,
  taskTrackerFileProblem,
  type TaskTrackerImportResult,
  type TaskTrackerSummary,
} from '@portal/shared/core/practices';
import { zodRule } from '@portal/shared/web/api';
import { publishToast } from '@portal/shared/web/events';
import { useFileDrop, useStrayFileDropGuard } from '@portal/shared/web/hooks';
import { uploadForm } from '@portal/shared/web/upload';
import { fileTemplateUrl, importTemplatePath, practicesApi, replaceTemplatePath, templateChangeTags } from '../api/practices-api';
import { importProblem, type ImportProblem } from '../model/import-problem';

export type TemplateFileTarget = { kind: 'import'; practiceId: string } | { kind: 'replace'; practiceId: string; tracker: TaskTrackerSummary };

interface Values {
  name: string;
  description: string;
}

type Phase = { step: 'uploading'; percent: number } | { step: 'importing' } | null;

const FILE_INPUT_ID = 'task-tracker-file';

/** Whether the dialog is open: a closed antd Modal does not re-render its content with new props, context still reaches it. */
const DialogOpen = createContext(false);

/** The file input inside a zone that also takes a dropped or pasted file while the pointer is over it. */
function FileZone({ file, disabled, onFile }: { file: File | null; disabled: boolean; onFile: (file: File) => void }) {
  const open = useContext(DialogOpen);
  const { ref, over } = useFileDrop<HTMLDivElement>((files) => {
    if (!disabled && files[0]) onFile(files[0]);
  }, open);
  return (
    <div
      ref={ref}
      data-testid="tracker-drop-zone"
      style={{
        border: `1px dashed ${over ? '#1677ff' : '#d9d9d9'}`,
        background: over ? 'rgba(22, 119, 255, 0.06)' : undefined,
        borderRadius: 8,
        padding: 16,
      }}
    >
      <Flex gap="small" align="center" style={{ marginBottom: 8 }}>
        <InboxOutlined style={{ fontSize: 24, color: '#1677ff' }} aria-hidden />
        <Typography.Text type="secondary">Drop a .csv or .xlsx file here, or choose one.</Typography.Text>
      </Flex>
      <input
        id={FILE_INPUT_ID}
        type="file"
        accept={TASK_TRACKER_ACCEPT}
        disabled={disabled}
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          // the same file chosen again after a fix must fire a change
          e.target.value = '';
          if (chosen) onFile(chosen);
        }}
      />
      {file ? (
        <div style={{ marginTop: 8 }} data-testid="chosen-file">
          <Typography.Text strong>{file.name}</Typography.Text> <Typography.Text type="secondary">({formatBytes(file.size)})</Typography.Text>
        </div>
      ) : null}
    </div>
  );
}

function ProblemAlert({ problem }: { problem: ImportProblem }) {
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      title={problem.message}
      description={
        problem.problems.length ? (
          <>
            <ul aria-label="Problems in the file" style={{ margin: 0, paddingLeft: 18 }}>
              {problem.problems.map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
            {problem.more ? <div>and {problem.more} more</div> : null}
            <div style={{ marginTop: 4 }}>Nothing was imported: fix the file and try again.</div>
          </>
        ) : undefined
      }
    />
  );
}

export function TemplateFileModal({ target, onClose }: { target: TemplateFileTarget | null; onClose: () => void }) {
  const open = target !== null;
  // the last target stays while the dialog closes (its content fades out with it)
  const last = useRef<TemplateFileTarget | null>(target);
  if (target) last.current = target;
  const shown = target ?? last.current;
  const replacing = shown?.kind === 'replace';
  const dispatch = useDispatch();
  const [form] = Form.useForm<Values>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [problem, setProblem] = useState<ImportProblem | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>(null);
  const sending = useRef<{ controller: AbortController; importing: boolean } | null>(null);
  useStrayFileDropGuard(open);

  // Every opening starts over.
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setFile(null);
    setFileError(null);
    setProblem(null);
    setNote(null);
  }, [open, form]);

  // Closing the page while sending stops the upload.
  useEffect(() => () => sending.current?.controller.abort(), []);

  const nameProblem = (f: File): ImportProblem | null => {
    const code = taskTrackerFileProblem(f.name);
    if (code) return { message: ERROR_MESSAGES[code], problems: [], more: 0, fields: [], onlyFields: false };
    if (f.size === 0) return { message: `${f.name} is empty.`, problems: [], more: 0, fields: [], onlyFields: false };
    if (f.size > TASK_TRACKER_MAX_BYTES) return { message: `${f.name} is larger than ${formatBytes(TASK_TRACKER_MAX_BYTES)}.`, problems: [], more: 0, fields: [], onlyFields: false };
    return null;
  };

  const choose = (f: File) => {
    setFile(f);
    setFileError(null);
    setNote(null);
    setProblem(nameProblem(f));
  };

  const refresh = () => {
    if (shown) dispatch(practicesApi.util.invalidateTags(templateChangeTags(shown.practiceId, shown.kind === 'replace' ? shown.tracker.id : undefined)));
  };

  const send = async (values: Values | null, chosen: File) => {
    if (!shown) return;
    const controller = new AbortController();
    sending.current = { controller, importing: false };
    setProblem(null);
    setNote(null);
    setPhase({ step: 'uploading', percent: 0 });
    const body = new FormData();
    // the api reads the text fields before the file
    if (values) {
      const parsed = taskTrackerCreateSchema.parse(values);
      body.append('name', parsed.name);
      if (parsed.description) body.append('description', parsed.description);
    }
    body.append('file', chosen, chosen.name);
    try {
      const result = await uploadForm<TaskTrackerImportResult>(shown.kind === 'replace' ? replaceTemplatePath(shown.tracker.id) : importTemplatePath(shown.practiceId), body, {
        method: shown.kind === 'replace' ? 'PUT' : 'POST',
        signal: controller.signal,
        onProgress: (sentBytes, total) => {
          if (total && sentBytes >= total) {
            if (sending.current) sending.current.importing = true;
            setPhase({ step: 'importing' });
          } else {
            setPhase({ step: 'uploading', percent: total ? Math.min(99, Math.floor((sentBytes / total) * 100)) : 0 });
          }
        },
      });
      refresh();
      const n = result.tasks;
      publishToast({
        severity: 'success',
        summary: `${shown.kind === 'replace' ? 'Replaced' : 'Imported'} ${result.tracker.name}: ${n} ${n === 1 ? 'task' : 'tasks'}`,
      });
      onClose();
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') {
        if (sending.current?.importing) {
          // the file had arrived: the server may still finish, so the list is read again
          refresh();
          setNote('Stopped waiting. The file had been sent, so the import may still finish: check the templates list.');
        } else {
          setNote('The import was canceled. Nothing was imported.');
        }
      } else {
        const found = importProblem(e);
        if (found.fields.length) form.setFields(found.fields);
        setProblem(found.onlyFields ? null : found);
      }
    } finally {
      sending.current = null;
      setPhase(null);
    }
  };

  const submit = async () => {
    let values: Values | null = null;
    if (!file) setFileError('Choose a task tracker file.');
    if (!replacing) {
      try {
        values = await form.validateFields();
      } catch {
        return;
      }
    }
    if (!file) return;
    const before = nameProblem(file);
    if (before) {
      setProblem(before);
      return;
    }
    await send(values, file);
  };

  const cancelSend = () => sending.current?.controller.abort();
  const busy = phase !== null;
  const title = replacing && shown?.kind === 'replace' ? `Replace ${shown.tracker.name} from file` : 'Import template';

  return (
    <DialogOpen.Provider value={open}>
      <Modal
        open={open}
        title={title}
        width={600}
        mask={{ closable: !busy }}
        onCancel={busy ? cancelSend : onClose}
        footer={
          busy ? (
            <Flex gap="middle" align="center">
              <div role="status" aria-live="polite" style={{ flex: 1 }}>
                {phase.step === 'uploading' ? (
                  <>
                    <div>Uploading… {phase.percent}%</div>
                    <Progress percent={phase.percent} status="active" showInfo={false} aria-label="Upload progress" style={{ margin: 0 }} />
                  </>
                ) : (
                  <Space>
                    <Spin size="small" />
                    Importing rows…
                  </Space>
                )}
              </div>
              <Button onClick={cancelSend}>Cancel</Button>
            </Flex>
          ) : (
            <Flex gap="small" justify="flex-end">
              <Button onClick={onClose}>Cancel</Button>
              <Button type="primary" onClick={() => void submit()}>
                {replacing ? 'Replace' : 'Import'}
              </Button>
            </Flex>
          )
        }
      >
        {problem ? <ProblemAlert problem={problem} /> : null}
        {note ? <Alert type="warning" showIcon title={note} style={{ marginBottom: 16 }} /> : null}
        {replacing ? (
          <Typography.Paragraph>The template&apos;s tasks, controls and points of focus are replaced by the file&apos;s. If the file has a problem, nothing changes.</Typography.Paragraph>
        ) : null}
        <Form<Values> form={form} layout="vertical" disabled={busy} initialValues={{ name: '', description: '' }}>
          {!replacing ? (
            <>
              <Form.Item name="name" label="Name" rules={[zodRule(taskTrackerCreateSchema.shape.name)]}>
                <Input maxLength={120} autoFocus />
              </Form.Item>
              <Form.Item name="description" label="Description" rules={[zodRule(taskTrackerCreateSchema.shape.description, { skipEmpty: true })]}>
                <Input.TextArea rows={2} maxLength={1000} showCount />
              </Form.Item>
            </>
          ) : null}
          <Form.Item label="Task tracker file" htmlFor={FILE_INPUT_ID} required validateStatus={fileError ? 'error' : undefined} help={fileError ?? undefined}>
            <FileZone file={file} disabled={busy} onFile={choose} />
          </Form.Item>
        </Form>
        <Space size="middle" wrap>
          <Typography.Text type="secondary">The expected columns, with two example rows:</Typography.Text>
          <a href={fileTemplateUrl('csv')} download>
            <DownloadOutlined aria-hidden /> Download CSV template
          </a>
          <a href={fileTemplateUrl('xlsx')} download>
            <DownloadOutlined aria-hidden /> Download XLSX template
          </a>
        </Space>
      </Modal>
    </DialogOpen.Provider>
  );
}
