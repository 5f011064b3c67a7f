import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  Descriptions,
  EditOutlined,
  Flex,
  Modal,
  Progress,
  Space,
  Tag,
  TeamOutlined,
  Typography,
} from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { Link } from '@portal/shared/web/router';
import { formatDate } from '@portal/shared/core/dates';
import { PROJECT_TRANSITIONS, type Project, type ProjectStatus } from '@portal/shared/core/projects';
import { teamRosterPath } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { CONFIRMED_PROJECT_MOVES, personName, projectMoveBlocker, projectMoveLabel } from '../model/labels';
import { ProjectEditModal } from './project-edit-modal';
import { ProjectStatusTag } from './task-bits';

const CONFIRM_TEXT: Partial<Record<ProjectStatus, string>> = {
  canceled: 'A canceled project keeps its data but no work goes on in it. It can be restored to pending later.',
  completed: 'The project is closed as done. It can be reopened later.',
};

/** The project's title, facts and progress; for those who manage it: Edit and the status moves of PROJECT_TRANSITIONS. */
export function ProjectHeader({ project }: { project: Project }) {
  const [modal, modalHolder] = Modal.useModal();
  const [editing, setEditing] = useState(false);
  const [setStatus, { isLoading: moving, originalArgs }] = projectsApi.useProjectsSetStatusMutation();
  const movingTo = moving ? originalArgs?.status : undefined;

  const move = (to: ProjectStatus) => {
    // A refused move the header could not foresee (a suspended lead, files on a project to cancel) is the
    // shell's toast; the header keeps the server's status.
    const run = () =>
      setStatus({ projectId: project.id, status: to })
        .unwrap()
        .catch(() => undefined);
    if (!CONFIRMED_PROJECT_MOVES.includes(to)) return void run();
    void modal.confirm({
      title: `${projectMoveLabel(project.status, to)} ${project.title}?`,
      content: CONFIRM_TEXT[to],
      okText: to === 'canceled' ? 'Cancel project' : 'Complete project',
      cancelText: 'Keep it as it is',
      okButtonProps: { danger: to === 'canceled' },
      onOk: run,
    });
  };

  const percent = project.tasksTotal ? Math.round((project.tasksDone / project.tasksTotal) * 100) : 0;
  const manage = project.permissions.manage;
  // moves sure to be refused are not offered: off, with the reason under the header
  const moves = manage
    ? PROJECT_TRANSITIONS[project.status].map((to) => ({ to, blocker: projectMoveBlocker(project, to) }))
    : [];
  const blockers = [...new Set(moves.flatMap((m) => (m.blocker ? [m.blocker] : [])))];
  const hintId = (blocker: string) => `project-move-hint-${blockers.indexOf(blocker)}`;

  const actions = (
    <Space wrap>
      <Link to={teamRosterPath(project.id)}>
        <TeamOutlined /> Team roster
      </Link>
      {manage ? (
        <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
          Edit
        </Button>
      ) : null}
      {moves.map(({ to, blocker }) => (
        <Button
          key={to}
          type={to === 'active' ? 'primary' : 'default'}
          danger={to === 'canceled'}
          loading={movingTo === to}
          disabled={blocker !== null || (moving && movingTo !== to)}
          aria-describedby={blocker ? hintId(blocker) : undefined}
          onClick={() => move(to)}
        >
          {projectMoveLabel(project.status, to)}
        </Button>
      ))}
    </Space>
  );

  return (
    <div>
      {modalHolder}
      <PageHeader
        title={project.title}
        crumbs={[{ title: 'Projects', to: '/v2/projects' }, { title: project.title }]}
        extra={actions}
      />
      {blockers.map((blocker) => (
        <Typography.Paragraph key={blocker} id={hintId(blocker)} type="secondary" style={{ marginTop: -8 }}>
          {blocker}
        </Typography.Paragraph>
      ))}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 4 }}
        items={[
          { key: 'status', label: 'Status', children: <ProjectStatusTag status={project.status} /> },
          { key: 'type', label: 'Type', children: project.type },
          { key: 'practice', label: 'Practice', children: project.practice?.name ?? '—' },
          {
            key: 'dates',
            label: 'Dates',
            children:
              project.startDate || project.dueDate
                ? `${formatDate(project.startDate) || '—'} – ${formatDate(project.dueDate) || '—'}`
                : '—',
          },
          {
            key: 'lead',
            label: 'Lead Consultant',
            children: project.leadConsultant ? personName(project.leadConsultant) : '—',
          },
          {
            key: 'client',
            label: 'Client Lead',
            children: project.clientLead ? (
              personName(project.clientLead)
            ) : (
              <Typography.Text type="warning">Not set</Typography.Text>
            ),
          },
          {
            key: 'progress',
            label: 'Progress',
            span: 2,
            children: (
              <Flex align="center" gap="small" style={{ width: '100%' }}>
                <Progress
                  percent={percent}
                  size="small"
                  style={{ flex: 1, margin: 0 }}
                  aria-label={`${percent}% of tasks done`}
                />
                <span>{`${project.tasksDone} of ${project.tasksTotal} tasks done`}</span>
                {project.tasksOverdue ? <Tag color="red">{`${project.tasksOverdue} overdue`}</Tag> : null}
              </Flex>
            ),
          },
        ]}
      />
      {project.description ? (
        <Typography.Paragraph type="secondary" style={{ whiteSpace: 'pre-wrap', marginTop: 8 }}>
          {project.description}
        </Typography.Paragraph>
      ) : null}
      {manage ? <ProjectEditModal project={project} open={editing} onClose={() => setEditing(false)} /> : null}
    </div>
  );
}
