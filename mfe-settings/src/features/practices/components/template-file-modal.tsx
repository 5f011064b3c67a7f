/**
 * "Import template" (a new draft template of a practice from a task tracker file) and "Replace from
 * file" (a draft's content replaced). The file is sent with its upload progress, then the dialog says
 * the rows are being imported; Cancel aborts the upload, "Stop waiting" stops waiting for an import the
 * server may still finish (the list is read again first). The file is checked before sending; the
 * api's refusal (a malformed file, duplicate Task IDs...) stays in the dialog with the rows it names.
 * The pieces are shared with Projects' "Import tasks" (@portal/shared/…/task-tracker-import).
 */
import { useRef, useState, type ComponentRef } from 'react';
import { useStore } from '@portal/shared/web/store';
import { Alert, Form, Input, Modal, Typography } from '@portal/shared/ui/extra';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import {
  taskTrackerCreateSchema,
  type TaskTrackerImportResult,
  type TaskTrackerSummary,
} from '@portal/shared/core/practices';
import { schemaRule } from '@portal/shared/core/errors';
import { publishToast } from '@portal/shared/web/events';
import { useStrayFileDropGuard } from '@portal/shared/web/hooks';
import {
  invalidateAndWait,
  trackerFileProblem,
  uploadProblemReport,
  useUploadPhase,
  type ProblemReport,
} from '@portal/shared/web/task-tracker-import';
import {
  ImportProblemAlert,
  TrackerFileField,
  TrackerImportFooter,
  TrackerTemplateLinks,
} from '@portal/shared/ui/task-tracker-import';
import { uploadForm, UploadError } from '@portal/shared/web/upload';
import { importTemplatePath, replaceTemplatePath, templateChangeTags } from '../api/practices-api';

export type TemplateFileTarget =
  { kind: 'import'; practiceId: string } | { kind: 'replace'; practiceId: string; tracker: TaskTrackerSummary };

interface Values {
  name: string;
  description: string;
}

/** Fields of the import form the api may name in `details`: shown on the field, not in the Alert. */
const FORM_FIELDS = ['name', 'description'] as const;
const FALLBACK = 'The file could not be imported. Try again.';

/**
 * Render it with a new `key` for each opening (the page does): every opening starts over, with the
 * Name field focused. While closing, the last target stays so the content fades out with the dialog;
 * once closed its content is gone (destroyOnHidden), so no field ids linger on the page.
 */
export function TemplateFileModal({ target, onClose }: { target: TemplateFileTarget | null; onClose: () => void }) {
  const open = target !== null;
  const last = useRef<TemplateFileTarget | null>(target);
  if (target) last.current = target;
  const shown = target ?? last.current;
  const replacing = shown?.kind === 'replace';
  const store = useStore();
  const [form] = Form.useForm<Values>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [report, setReport] = useState<ProblemReport | null>(null);
  const [checking, setChecking] = useState(false);
  // a second click (or Enter) while the first is checked or sent does nothing
  const inFlight = useRef(false);
  const nameInput = useRef<ComponentRef<typeof Input>>(null);
  const refresh = () =>
    shown
      ? invalidateAndWait(
          store,
          templateChangeTags(shown.practiceId, shown.kind === 'replace' ? shown.tracker.id : undefined),
        )
      : undefined;
  const upload = useUploadPhase({ refresh });
  useStrayFileDropGuard(open);

  const choose = (files: File[]) => {
    setReport(null);
    upload.clearNotice();
    if (files.length > 1) {
      setFileError('Choose one file: a template is imported from one task tracker file.');
      return;
    }
    const problem = trackerFileProblem(files[0]);
    setFile(files[0]);
    setFileError(problem);
  };

  const send = async (values: Values | null, chosen: File) => {
    if (!shown) return;
    setReport(null);
    const body = new FormData();
    // the api reads the text fields before the file
    if (values) {
      const parsed = taskTrackerCreateSchema.parse(values);
      body.append('name', parsed.name);
      if (parsed.description) body.append('description', parsed.description);
    }
    body.append('file', chosen, chosen.name);
    const outcome = await upload.run((options) =>
      uploadForm<TaskTrackerImportResult>(
        shown.kind === 'replace' ? replaceTemplatePath(shown.tracker.id) : importTemplatePath(shown.practiceId),
        body,
        {
          method: shown.kind === 'replace' ? 'PUT' : 'POST',
          ...options,
        },
      ),
    );
    if (outcome.ok) {
      void refresh();
      const n = outcome.value.tasks;
      publishToast({
        severity: 'success',
        summary: `${shown.kind === 'replace' ? 'Replaced' : 'Imported'} ${outcome.value.tracker.name}: ${n} ${n === 1 ? 'task' : 'tasks'}`,
      });
      onClose();
      return;
    }
    if (outcome.canceled) return;
    const error = outcome.error;
    const onFields =
      error instanceof UploadError
        ? error.details.filter((d) => (FORM_FIELDS as readonly string[]).includes(d.field))
        : [];
    const fields = FORM_FIELDS.map((name) => ({
      name,
      errors: onFields.filter((d) => d.field === name).map((d) => d.message),
    })).filter((f) => f.errors.length);
    if (
      error instanceof UploadError &&
      error.code === 'task_tracker_name_taken' &&
      !fields.some((f) => f.name === 'name')
    ) {
      fields.push({ name: 'name', errors: [ERROR_MESSAGES.task_tracker_name_taken] });
    }
    if (fields.length) form.setFields(fields);
    const rowDetails =
      error instanceof UploadError
        ? error.details.filter((d) => !(FORM_FIELDS as readonly string[]).includes(d.field))
        : [];
    // everything wrong is on the form's own fields: nothing about the file to say
    if (fields.length && !rowDetails.length) return;
    setReport(uploadProblemReport(error, FALLBACK, FORM_FIELDS));
  };

  /** The form's values once valid. Enter right after typing finds the last key's check still running ("out of date"): checked again. */
  const validated = async (): Promise<Values> => {
    try {
      return await form.validateFields();
    } catch (e) {
      if ((e as { outOfDate?: boolean }).outOfDate) return form.validateFields();
      throw e;
    }
  };

  const submit = async () => {
    if (inFlight.current || upload.busy) return;
    inFlight.current = true;
    setChecking(true);
    try {
      let values: Values | null = null;
      if (!file) setFileError('Choose a task tracker file.');
      if (!replacing) {
        try {
          values = await validated();
        } catch {
          return;
        }
      }
      if (!file) return;
      const problem = trackerFileProblem(file);
      if (problem) {
        setFileError(problem);
        return;
      }
      await send(values, file);
    } finally {
      inFlight.current = false;
      setChecking(false);
    }
  };

  const title = shown?.kind === 'replace' ? `Replace ${shown.tracker.name} from file` : 'Import template';

  return (
    <Modal
      open={open}
      title={title}
      width={600}
      destroyOnHidden
      // the dialog takes the focus when it opens: the name gets it back once it is shown
      afterOpenChange={(shownNow) => {
        if (shownNow) nameInput.current?.focus();
      }}
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
          submitLabel={replacing ? 'Replace' : 'Import'}
          submitting={checking && !upload.busy}
          onSubmit={() => void submit()}
        />
      }
    >
      {report ? (
        <ImportProblemAlert
          report={report}
          listLabel="Problems in the file"
          note="Nothing was imported: fix the file and try again."
        />
      ) : null}
      {upload.notice ? <Alert type="warning" showIcon title={upload.notice} style={{ marginBottom: 16 }} /> : null}
      {replacing ? (
        <Typography.Paragraph>
          The template&apos;s tasks, controls and points of focus are replaced by the file&apos;s. If the file has a
          problem, nothing changes.
        </Typography.Paragraph>
      ) : null}
      <Form<Values>
        form={form}
        name={replacing ? 'template-replace' : 'template-import'}
        layout="vertical"
        disabled={upload.busy}
        initialValues={{ name: '', description: '' }}
      >
        {!replacing ? (
          <>
            <Form.Item name="name" label="Name" rules={[schemaRule(taskTrackerCreateSchema.shape.name)]}>
              {/* Enter in the name submits, like a form's Enter */}
              <Input ref={nameInput} maxLength={120} autoFocus onPressEnter={() => void submit()} />
            </Form.Item>
            <Form.Item
              name="description"
              label="Description"
              rules={[schemaRule(taskTrackerCreateSchema.shape.description, { skipEmpty: true })]}
            >
              <Input.TextArea rows={2} maxLength={1000} showCount />
            </Form.Item>
          </>
        ) : null}
        <TrackerFileField file={file} error={fileError} disabled={upload.busy} onFiles={choose} />
      </Form>
      <TrackerTemplateLinks intro="The expected columns, with two example rows:" />
    </Modal>
  );
}
