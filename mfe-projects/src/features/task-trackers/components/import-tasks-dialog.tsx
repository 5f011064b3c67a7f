/**
 * "Import tasks": a task tracker file (.csv or .xlsx) straight into the project. The file is checked
 * before anything is sent; the upload shows its progress, then the server's work; Cancel aborts the
 * upload, "Stop waiting" stops waiting for an import the server may still finish (the task list is
 * read again before another import). The import is all or nothing: a refusal lists the rows it names
 * and nothing is created. The pieces are shared with Settings' "Import template".
 */
import { useRef, useState } from 'react';
import { Alert, Form, Modal, Typography } from '@portal/shared/ui/extra';
import { publishToast } from '@portal/shared/web/events';
import { useStrayFileDropGuard } from '@portal/shared/web/hooks';
import { useStore } from '@portal/shared/web/store';
import { TASK_TRACKER_COLUMNS } from '@portal/shared/core/practices';
import type { Project } from '@portal/shared/core/projects';
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
import { importTrackerFile, TRACKER_CHANGES } from '../api/task-trackers-api';
import { countOf } from '../model/tracker-file';

export function ImportTasksDialog({ project, onClose }: { project: Project; onClose: () => void }) {
  const store = useStore();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [report, setReport] = useState<ProblemReport | null>(null);
  const upload = useUploadPhase({ refresh: () => invalidateAndWait(store, TRACKER_CHANGES) });
  // a second click while the first is under way does nothing
  const inFlight = useRef(false);
  // a file dropped beside the box does not replace the portal
  useStrayFileDropGuard();

  const pick = (files: File[]) => {
    setReport(null);
    upload.clearNotice();
    if (files.length > 1) {
      setFileError('Choose one file: tasks are imported from one task tracker file at a time.');
      return;
    }
    const problem = trackerFileProblem(files[0]);
    setFileError(problem);
    setFile(problem ? null : files[0]);
  };

  const submit = async () => {
    if (inFlight.current || upload.busy) return;
    if (!file) {
      if (!fileError) setFileError('Choose a .csv or .xlsx file.');
      return;
    }
    const problem = trackerFileProblem(file);
    if (problem) {
      setFileError(problem);
      return;
    }
    inFlight.current = true;
    setReport(null);
    try {
      const outcome = await upload.run((options) => importTrackerFile(project.id, file, options));
      if (outcome.ok) {
        void invalidateAndWait(store, TRACKER_CHANGES);
        publishToast({ severity: 'success', summary: `Imported ${countOf(outcome.value.tasks, 'task')}` });
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
      title="Import tasks"
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
          closeLabel="Close"
          submitLabel="Import"
          onSubmit={() => void submit()}
        />
      }
    >
      {report ? <ImportProblemAlert report={report} /> : null}
      {upload.notice ? <Alert type="info" showIcon title={upload.notice} style={{ marginBottom: 16 }} /> : null}
      <Typography.Paragraph>
        {`Each row of the file is a task or a subtask (its Parent Task ID names the task). The columns: ${TASK_TRACKER_COLUMNS.join(', ')}; only Task Title is required. The file is imported whole or not at all: a Task ID the project already has is refused.`}
      </Typography.Paragraph>
      <TrackerTemplateLinks />
      <Form name="import-tasks" layout="vertical" component="div">
        <TrackerFileField
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
