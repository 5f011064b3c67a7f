import { useMemo, useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  Card,
  DeleteOutlined,
  Flex,
  Modal,
  Select,
  Table,
  Tag,
  Tooltip,
  Typography,
  UserAddOutlined,
  type TableProps,
} from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { useParams } from '@portal/shared/web/router';
import {
  LEAD_ROLES,
  type AssignableUser,
  type Project,
  type ProjectMember,
  type ProjectRole,
} from '@portal/shared/core/projects';
import { projectPath } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { personName } from '../model/labels';
import { displacedHolder, memberRoleOptions, removalBlocked } from '../model/roster';
import { LoadFailedEmpty, ProjectGate } from './page-states';

type ModalApi = ReturnType<typeof Modal.useModal>[0];

/**
 * Gives `role` to a user. A role held by one user moves from its holder, so that is asked first,
 * naming the holder and what happens to them; otherwise it is given at once.
 */
function giveRole(
  modal: ModalApi,
  {
    user,
    role,
    members,
    give,
  }: {
    user: { id: string; firstName: string; lastName: string; email: string };
    role: ProjectRole;
    members: readonly ProjectMember[];
    give: () => Promise<unknown>;
  },
): void {
  const displaced = displacedHolder(role, user.id, members);
  if (!displaced) {
    void give();
    return;
  }
  void modal.confirm({
    title: `Give ${role} to ${personName(user)}?`,
    content: `${role} is held by one person. ${displaced.outcome}`,
    okText: `Give ${role}`,
    onOk: give,
  });
}

/** Adds a user with one of the roles the caller may give that user (AssignableUser.roles). */
function AddMember({
  project,
  members,
  candidates,
  modal,
}: {
  project: Project;
  members: ProjectMember[];
  candidates: { data?: AssignableUser[]; isFetching: boolean; isError: boolean };
  modal: ModalApi;
}) {
  const [assign, { isLoading }] = projectsApi.useProjectsAssignRoleMutation();
  const [userId, setUserId] = useState<string | undefined>();
  const [role, setRole] = useState<ProjectRole | undefined>();
  const onRoster = new Set(members.map((m) => m.id));
  const offered = (candidates.data ?? []).filter((u) => !onRoster.has(u.id) && u.roles.length);
  const chosen: AssignableUser | undefined = offered.find((u) => u.id === userId);

  const add = async (user: AssignableUser, given: ProjectRole) => {
    try {
      await assign({ userId: user.id, projectId: project.id, role: given }).unwrap();
      setUserId(undefined);
      setRole(undefined);
    } catch {
      // the shell shows the toast; the choice stays for another try
    }
  };

  return (
    <Flex gap="small" wrap style={{ marginBottom: 16 }}>
      <Select
        aria-label="User to add"
        placeholder="Choose a user"
        style={{ minWidth: 280, flex: 1 }}
        value={userId}
        onChange={(id: string) => {
          setUserId(id);
          const roles = offered.find((u) => u.id === id)?.roles ?? [];
          setRole(roles.length === 1 ? roles[0] : undefined);
        }}
        loading={candidates.isFetching}
        showSearch={{ optionFilterProp: 'label' }}
        options={offered.map((u) => ({
          value: u.id,
          label: `${personName(u)} (${u.email})${u.isTevora ? ' · staff' : ''}`,
        }))}
        notFoundContent={candidates.isError ? 'The users could not be loaded.' : 'No one else can be added.'}
      />
      <Select
        aria-label="Role of the new member"
        placeholder="Role"
        style={{ minWidth: 180 }}
        disabled={!chosen}
        value={role}
        onChange={(r: ProjectRole) => setRole(r)}
        options={(chosen?.roles ?? []).map((r) => ({ value: r, label: r }))}
      />
      <Button
        type="primary"
        icon={<UserAddOutlined />}
        disabled={!chosen || !role}
        loading={isLoading}
        onClick={() =>
          chosen && role && giveRole(modal, { user: chosen, role, members, give: () => add(chosen, role) })
        }
      >
        Add member
      </Button>
    </Flex>
  );
}

function Roster({ project }: { project: Project }) {
  const [modal, modalHolder] = Modal.useModal();
  const manage = project.permissions.manageRoster;
  const members = projectsApi.useProjectsUsersQuery(project.id);
  // What the caller may give each user: the add form's choices and each member's role options.
  const candidates = projectsApi.useProjectsAssignableUsersQuery(project.id, { skip: !manage });
  const givable = useMemo(() => new Map((candidates.data ?? []).map((u) => [u.id, u])), [candidates.data]);
  const [assign, { isLoading, originalArgs }] = projectsApi.useProjectsAssignRoleMutation();
  const busyUser = isLoading ? originalArgs?.userId : undefined;
  const roster = members.data ?? [];
  // A refused change (a race with another manager...) is the shell's toast. The role cells show the
  // server's roles, and the call's tags refetch the roster on failure too.
  const setRole = (member: ProjectMember, role: ProjectRole | null) =>
    assign({ userId: member.id, projectId: project.id, role })
      .unwrap()
      .catch(() => undefined);

  const confirmRemove = (member: ProjectMember) =>
    void modal.confirm({
      title: `Remove ${personName(member)} from ${project.title}?`,
      content: `They lose the role ${member.role} on this project.`,
      okText: 'Remove',
      okButtonProps: { danger: true },
      onOk: () => setRole(member, null),
    });

  const roleCell = (m: ProjectMember) => {
    const options = memberRoleOptions(m, givable);
    if (!manage || options.length < 2) return m.role;
    return (
      <Select
        aria-label={`Role of ${personName(m)}`}
        value={m.role}
        style={{ minWidth: 170 }}
        disabled={busyUser === m.id}
        loading={busyUser === m.id}
        onChange={(role: ProjectRole) =>
          giveRole(modal, { user: m, role, members: roster, give: () => setRole(m, role) })
        }
        options={options.map((r) => ({ value: r, label: r }))}
      />
    );
  };

  const removeCell = (m: ProjectMember) => {
    const blocked = removalBlocked(m, project.permissions.manage);
    const button = (
      <Button
        size="small"
        danger
        icon={<DeleteOutlined />}
        disabled={blocked !== null || busyUser === m.id}
        aria-label={`Remove ${personName(m)}`}
        onClick={() => confirmRemove(m)}
      >
        Remove
      </Button>
    );
    // A disabled button takes no pointer events: its wrapper shows the reason.
    return blocked ? (
      <Tooltip title={blocked}>
        <span style={{ display: 'inline-block' }}>{button}</span>
      </Tooltip>
    ) : (
      button
    );
  };

  const columns: TableProps<ProjectMember>['columns'] = [
    {
      key: 'name',
      title: 'Name',
      render: (_v, m) => (
        <Flex gap="small" align="center" wrap>
          {personName(m)}
          {m.status === 'suspended' ? (
            // Activation counts a suspended lead as missing: the tag says why a project will not activate.
            <Tooltip
              title={
                LEAD_ROLES.includes(m.role)
                  ? 'A suspended lead counts as missing: the project cannot be activated.'
                  : 'This user is suspended.'
              }
            >
              <Tag color="orange">Suspended</Tag>
            </Tooltip>
          ) : null}
        </Flex>
      ),
    },
    { key: 'email', title: 'Email', dataIndex: 'email' },
    { key: 'kind', title: 'Kind', render: (_v, m) => (m.isTevora ? <Tag color="blue">Staff</Tag> : <Tag>Client</Tag>) },
    { key: 'role', title: 'Role', render: (_v, m) => roleCell(m) },
    ...(manage ? [{ key: 'remove', title: 'Actions', render: (_v: unknown, m: ProjectMember) => removeCell(m) }] : []),
  ];

  return (
    <Card>
      {modalHolder}
      {manage ? <AddMember project={project} members={roster} candidates={candidates} modal={modal} /> : null}
      <Table<ProjectMember>
        rowKey="id"
        columns={columns}
        dataSource={roster}
        loading={members.isFetching}
        pagination={false}
        locale={{
          emptyText: members.isError ? (
            <LoadFailedEmpty what="team roster" onRetry={() => void members.refetch()} />
          ) : (
            'No one is on this project yet.'
          ),
        }}
      />
      {manage ? null : (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          Changing the roster is for staff and the project’s Client Lead.
        </Typography.Paragraph>
      )}
    </Card>
  );
}

/** /v2/projects/:projectId/team-roster */
export function TeamRosterPage() {
  const { projectId = '' } = useParams();
  return (
    <div data-testid="team-roster">
      <ProjectGate projectId={projectId}>
        {(project) => (
          <>
            <PageHeader
              title="Team roster"
              crumbs={[{ title: project.title, to: projectPath(project.id) }, { title: 'Team roster' }]}
            />
            <Roster project={project} />
          </>
        )}
      </ProjectGate>
    </div>
  );
}
