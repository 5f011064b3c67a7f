/**
 * "Apply template": copies a published template's tasks (with their subtasks, controls and points of
 * focus) into the project, all of them or the ones chosen. A refusal stays in the dialog, in the
 * catalogue's words; success says how many tasks were created and the task list follows.
 */
import { useId, useState } from 'react';
import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Empty, Flex, Form, Modal, Select, Skeleton, Switch, Typography } from '@portal/shared/ui/extra';
import { Link } from '@portal/shared/web/router';
import { publishToast } from '@portal/shared/web/events';
import { skipToken } from '@portal/shared/web/store';
import { ERROR_MESSAGES } from '@portal/shared/core/errors';
import type { ApplicableTracker } from '@portal/shared/core/practices';
import type { Project } from '@portal/shared/core/projects';
import { taskTrackersApi } from '../api/task-trackers-api';
import { apiProblemReport, SHOWN_PROBLEMS, type ProblemReport } from '@portal/shared/web/task-tracker-import';
import { allTaskIds, chosenTaskIds } from '../model/task-choice';
import { countOf } from '../model/tracker-file';
import { ImportProblemAlert } from '@portal/shared/ui/task-tracker-import';
import { TaskPicker } from './task-picker';

/** A template, or a group of them under their practice. */
interface TemplateOption {
  value?: string;
  label: string;
  title?: string;
  options?: TemplateOption[];
}

const optionOf = (t: ApplicableTracker): TemplateOption => ({ value: t.id, label: `${t.name} — ${t.practice.name}` });

/** The templates as options, the project's practice's first and set apart when there are others too. */
function templateOptions(project: Project, trackers: ApplicableTracker[]): TemplateOption[] {
  const own = trackers.filter((t) => t.ofProjectPractice);
  const others = trackers.filter((t) => !t.ofProjectPractice);
  if (!own.length || !others.length) return [...own, ...others].map(optionOf);
  const practice = project.practice?.name ?? own[0].practice.name;
  return [
    {
      label: `${practice} (this project's practice)`,
      title: `${practice} (this project's practice)`,
      options: own.map(optionOf),
    },
    { label: 'Other practices', title: 'Other practices', options: others.map(optionOf) },
  ];
}

/**
 * Whether the api would refuse to apply `tracker` because it would change the practice of a project
 * that has tasks (409 practices_can_not_be_changed_when_project_has_tasks): Apply is then disabled.
 */
export function practiceLocked(project: Project, tracker: ApplicableTracker | undefined): boolean {
  return Boolean(tracker && project.practice && project.practice.id !== tracker.practice.id && project.tasksTotal > 0);
}

/** The start of the title of a refused apply whose Task IDs the project has already. */
export const TASK_IDS_TAKEN = 'Some Task IDs of this template already exist in the project';

/**
 * The refusal of an apply as the dialog shows it. Task IDs the project has already (409
 * task_reference_id_already_exist_on_project) are a conflict with the project, not a file's repeated
 * IDs: the title says so and names them, the server's details follow.
 */
export function applyProblemReport(error: unknown): ProblemReport {
  const report = apiProblemReport(error, 'The template could not be applied. Try again.');
  const data = (error as { data?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.data;
  if (data?.code !== 'task_reference_id_already_exist_on_project') return report;
  const details = Array.isArray(data.details)
    ? (data.details as { message?: unknown }[])
        .map((d) => d?.message)
        .filter((m): m is string => typeof m === 'string' && m !== '')
    : [];
  const ids = [...new Set(details.flatMap((m) => [...m.matchAll(/Task ID (\S+) is already/g)].map((x) => x[1])))];
  const problems = details.length ? details : typeof data.message === 'string' && data.message ? [data.message] : [];
  const more = Math.max(0, problems.length - SHOWN_PROBLEMS);
  return {
    title: ids.length ? `${TASK_IDS_TAKEN}: ${ids.join(', ')}${more ? ', …' : ''}` : `${TASK_IDS_TAKEN}.`,
    problems: problems.slice(0, SHOWN_PROBLEMS),
    more,
  };
}

/** What applying `tracker` does to the project's practice, when it is worth saying. */
function PracticeNote({ project, tracker, id }: { project: Project; tracker: ApplicableTracker; id: string }) {
  if (!project.practice)
    return (
      <Typography.Text type="secondary">{`The project has no practice yet: it takes ${tracker.practice.name}.`}</Typography.Text>
    );
  if (project.practice.id === tracker.practice.id) return null;
  if (practiceLocked(project, tracker)) {
    return (
      <Typography.Text type="warning" id={id}>
        {`${ERROR_MESSAGES.practices_can_not_be_changed_when_project_has_tasks} This template is of ${tracker.practice.name}; the project follows ${project.practice.name}.`}
      </Typography.Text>
    );
  }
  return (
    <Typography.Text type="secondary">{`This template is of ${tracker.practice.name}, not of the project's practice (${project.practice.name}).`}</Typography.Text>
  );
}

function Loading({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label}>
      <Skeleton active paragraph={{ rows: 3 }} />
    </div>
  );
}

function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <Flex vertical gap="small" align="flex-start">
      <Typography.Text type="danger">{`The ${what} could not be loaded.`}</Typography.Text>
      <Button icon={<ReloadOutlined />} onClick={onRetry}>
        Try again
      </Button>
    </Flex>
  );
}

export function ApplyTemplateDialog({ project, onClose }: { project: Project; onClose: () => void }) {
  // templates are published in Settings meanwhile: ask again each time the dialog opens
  const trackers = taskTrackersApi.useProjectsTaskTrackersQuery(project.id, { refetchOnMountOrArgChange: true });
  const [apply, { isLoading: applying }] = taskTrackersApi.useProjectsApplyTemplateMutation();
  const [trackerId, setTrackerId] = useState<string | undefined>();
  const [missing, setMissing] = useState(false);
  const [picking, setPicking] = useState(false);
  /** The tasks chosen in the picker; null until the user changes them (all of them). */
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const [report, setReport] = useState<ProblemReport | null>(null);

  const list = trackers.data ?? [];
  // one template to choose from is chosen already
  const selectedId = trackerId ?? (list.length === 1 ? list[0].id : undefined);
  const selected = list.find((t) => t.id === selectedId);
  // the template may have changed in Settings since it was last read (this query has no tag those changes invalidate)
  const detail = taskTrackersApi.useProjectsTaskTrackerQuery(picking && selected ? selected.id : skipToken, {
    refetchOnMountOrArgChange: true,
  });
  const locked = practiceLocked(project, selected);
  const lockedId = useId();
  const tasks = detail.currentData?.tasks;
  const chosenSet = chosen ?? new Set(tasks ? allTaskIds(tasks) : []);
  const pickerBlocks = picking && (!tasks || chosenSet.size === 0);

  const choose = (id: string) => {
    setTrackerId(id);
    setChosen(null);
    setMissing(false);
    setReport(null);
  };

  const submit = async () => {
    if (!selected) {
      setMissing(true);
      return;
    }
    if (pickerBlocks || locked) return;
    const taskIds = picking && tasks ? chosenTaskIds(tasks, chosenSet) : undefined;
    setReport(null);
    try {
      const result = await apply({
        projectId: project.id,
        body: { practiceId: selected.practice.id, taskTrackerId: selected.id, ...(taskIds ? { taskIds } : {}) },
      }).unwrap();
      publishToast({
        severity: 'success',
        summary: `Applied ${selected.name}: ${countOf(result.tasks, 'task')} created`,
      });
      onClose();
    } catch (error) {
      setReport(applyProblemReport(error));
    }
  };

  let body;
  if (trackers.isLoading) body = <Loading label="Loading the templates" />;
  else if (trackers.isError && !trackers.data)
    body = <LoadFailed what="templates" onRetry={() => void trackers.refetch()} />;
  else if (!list.length) {
    body = (
      <Empty description="No published templates">
        <Typography.Paragraph type="secondary">
          A template can be applied once it is published, in{' '}
          <Link to="/settings/practices">Practices &amp; Templates</Link>. You can also import tasks from a task tracker
          file.
        </Typography.Paragraph>
      </Empty>
    );
  } else {
    body = (
      <Form layout="vertical" component="div">
        <Form.Item
          label="Template"
          htmlFor="apply-template"
          required
          validateStatus={missing ? 'error' : undefined}
          help={missing ? 'Choose a template.' : undefined}
        >
          <Select<string, TemplateOption>
            id="apply-template"
            placeholder="Choose a template"
            value={selectedId}
            onChange={choose}
            options={templateOptions(project, list)}
            showSearch={{ optionFilterProp: 'label' }}
            disabled={applying}
            autoFocus
          />
        </Form.Item>
        {selected ? (
          <Flex vertical gap="small">
            {selected.description ? (
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
                {selected.description}
              </Typography.Paragraph>
            ) : null}
            <Typography.Text type="secondary">{`${countOf(selected.taskCount, 'task')} · ${countOf(selected.controlCount, 'control')}`}</Typography.Text>
            <PracticeNote project={project} tracker={selected} id={lockedId} />
            <Flex align="center" gap="small" style={{ marginTop: 8 }}>
              <Switch
                id="apply-choose-tasks"
                size="small"
                checked={picking}
                onChange={setPicking}
                disabled={applying}
              />
              <label htmlFor="apply-choose-tasks">Choose tasks</label>
              {picking ? null : <Typography.Text type="secondary">(all of them are applied)</Typography.Text>}
            </Flex>
            {!picking ? null : detail.isError && !tasks ? (
              <LoadFailed what="template's tasks" onRetry={() => void detail.refetch()} />
            ) : !tasks ? (
              <Loading label="Loading the template's tasks" />
            ) : (
              <>
                <TaskPicker tasks={tasks} chosen={chosenSet} onChange={setChosen} />
                {chosenSet.size === 0 ? (
                  <Typography.Text type="danger">Choose at least one task.</Typography.Text>
                ) : null}
              </>
            )}
          </Flex>
        ) : null}
      </Form>
    );
  }

  return (
    <Modal
      open
      title="Apply template"
      width={640}
      okText="Apply"
      onOk={() => void submit()}
      okButtonProps={{
        loading: applying,
        disabled: !list.length || pickerBlocks || locked,
        'aria-describedby': locked ? lockedId : undefined,
      }}
      cancelButtonProps={{ disabled: applying }}
      closable={{ disabled: applying }}
      keyboard={!applying}
      mask={{ closable: !applying }}
      onCancel={() => {
        if (!applying) onClose();
      }}
    >
      {report ? <ImportProblemAlert report={report} /> : null}
      {trackers.isError && trackers.data ? (
        <Alert
          type="warning"
          showIcon
          title="The templates could not be refreshed: the list may be out of date."
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {body}
    </Modal>
  );
}
