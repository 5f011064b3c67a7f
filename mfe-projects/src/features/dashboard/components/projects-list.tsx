/**
 * The company's projects as a table: filters, sort and page in the address, activation per row and
 * the "New project" dialog. Loaded on demand by the dashboard pages (it needs the extra UI kit).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from '@portal/shared/web/router';
import { Button } from '@portal/shared/ui/button';
import {
  Flex,
  Input,
  PlayCircleOutlined,
  PlusOutlined,
  Progress,
  SearchOutlined,
  Select,
  Tag,
  Tooltip,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { formatDate } from '@portal/shared/core/dates';
import {
  PROJECT_STATUSES,
  PROJECT_STATUS_LABELS,
  type Project,
  type ProjectUserRef,
} from '@portal/shared/core/projects';
import { publishToast } from '@portal/shared/web/events';
import { useDebouncedText } from '@portal/shared/web/hooks';
import { projectPath } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { PagedTable, sortableColumn, sortOfSorter, VISUALLY_HIDDEN } from '../../../app/list-table';
import {
  apiQueryOf,
  DEFAULT_SORT,
  hasFilters,
  listStateFrom,
  PAGE_SIZES,
  withListState,
  type ProjectSort,
  type ProjectsListState,
} from '../model/projects-query';
import { PROJECT_STATUS_COLORS } from '../../../app/status-colors';
import { projectMoveBlocker } from '../../projects/model/labels';
import { NewProjectModal } from './new-project-modal';

/** Statuses from which a manager may activate a project straight from the list. */
const ACTIVATABLE = new Set<Project['status']>(['pending', 'on_hold']);

const STATUS_OPTIONS = PROJECT_STATUSES.map((s) => ({ value: s, label: PROJECT_STATUS_LABELS[s] }));

const personName = (p: ProjectUserRef | null) => (p ? `${p.firstName} ${p.lastName}` : '—');

type SortKey = 'title' | 'status' | 'progress' | 'dueDate';

export function ProjectsList({ companyId }: { companyId: string }) {
  const [params, setParams] = useSearchParams();
  const state = listStateFrom(params);
  const list = projectsApi.useProjectsListQuery({ companyId, ...apiQueryOf(state) });
  const summary = projectsApi.useProjectsSummaryQuery(companyId);
  const [setStatus] = projectsApi.useProjectsSetStatusMutation();
  const [activating, setActivating] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const update = useCallback(
    (changes: Partial<ProjectsListState>, replace = false) =>
      setParams((prev) => withListState(prev, changes), { replace }),
    [setParams],
  );
  // A typing burst is one step of history: its first search pushes an entry (Back returns to the list
  // before the search) and the next ones replace it, while that entry is still the current one and the
  // box has kept the focus.
  const { key: locationKey } = useLocation();
  const currentKey = useRef(locationKey);
  const burstKey = useRef<string | null>(null);
  const searchPending = useRef(false);
  useEffect(() => {
    currentKey.current = locationKey;
    if (searchPending.current) {
      searchPending.current = false;
      burstKey.current = locationKey;
    }
  }, [locationKey]);
  const commitSearch = useCallback(
    (search: string) => {
      const continuing = burstKey.current !== null && burstKey.current === currentKey.current;
      searchPending.current = true;
      update({ search }, continuing);
    },
    [update],
  );
  const [searchText, setSearchText] = useDebouncedText(state.search, commitSearch);

  const practices = summary.data?.practices ?? [];
  const filtered = hasFilters(state);

  const activate = async (project: Project) => {
    setActivating(project.id);
    try {
      await setStatus({ projectId: project.id, status: 'active' }).unwrap();
      publishToast({ severity: 'success', summary: `${project.title} is active` });
    } catch {
      // The shell's toast already shows the api's reason (e.g. a missing Client Lead); the row stays as it was.
    } finally {
      setActivating(null);
    }
  };

  const onTableChange: TableProps<Project>['onChange'] = (pagination, _filters, sorter, { action }) => {
    if (action === 'sort') {
      update({ sort: sortOfSorter<ProjectSort>(sorter, DEFAULT_SORT) });
    } else if (action === 'paginate') {
      const pageSize = pagination.pageSize ?? state.pageSize;
      update(pageSize !== state.pageSize ? { pageSize } : { page: pagination.current ?? 1 });
    }
  };

  const sortable = (key: SortKey) => sortableColumn(state.sort, key);

  const columns: TableProps<Project>['columns'] = [
    {
      ...sortable('title'),
      title: 'Title',
      render: (_: unknown, p: Project) => <Link to={projectPath(p.id)}>{p.title}</Link>,
    },
    {
      ...sortable('status'),
      title: 'Status',
      render: (_: unknown, p: Project) => (
        <Tag color={PROJECT_STATUS_COLORS[p.status]}>{PROJECT_STATUS_LABELS[p.status]}</Tag>
      ),
    },
    { key: 'type', title: 'Type', dataIndex: 'type' },
    { key: 'practice', title: 'Practice', render: (_: unknown, p: Project) => p.practice?.name ?? '—' },
    {
      key: 'leadConsultant',
      title: 'Lead Consultant',
      render: (_: unknown, p: Project) => personName(p.leadConsultant),
    },
    { key: 'clientLead', title: 'Client Lead', render: (_: unknown, p: Project) => personName(p.clientLead) },
    {
      ...sortable('progress'),
      title: 'Progress',
      width: 160,
      render: (_: unknown, p: Project) => (
        <Progress
          size="small"
          percent={p.tasksTotal ? Math.round((p.tasksDone / p.tasksTotal) * 100) : 0}
          format={() => `${p.tasksDone}/${p.tasksTotal}`}
          aria-label={`${p.tasksDone} of ${p.tasksTotal} tasks done`}
        />
      ),
    },
    {
      key: 'overdue',
      title: 'Overdue',
      align: 'right',
      render: (_: unknown, p: Project) =>
        p.tasksOverdue ? <Typography.Text type="danger">{p.tasksOverdue}</Typography.Text> : 0,
    },
    { ...sortable('dueDate'), title: 'Due date', render: (_: unknown, p: Project) => formatDate(p.dueDate) },
    {
      key: 'actions',
      title: <span style={VISUALLY_HIDDEN}>Actions</span>,
      // Pinned: the table scrolls sideways on narrower screens and the action must stay in reach.
      fixed: 'right',
      render: (_: unknown, p: Project) =>
        p.permissions.manage && ACTIVATABLE.has(p.status) ? (
          // off, saying why, when activation is sure to be refused (no Client Lead, no Lead Consultant)
          <Tooltip title={projectMoveBlocker(p, 'active')}>
            <Button
              size="small"
              icon={<PlayCircleOutlined />}
              loading={activating === p.id}
              disabled={projectMoveBlocker(p, 'active') !== null || (activating !== null && activating !== p.id)}
              onClick={() => void activate(p)}
              aria-label={`Activate ${p.title}`}
            >
              Activate
            </Button>
          </Tooltip>
        ) : null,
    },
  ];

  const clearFilters = () => {
    setSearchText('');
    update({ status: [], practiceId: null, search: '' });
  };

  return (
    <Flex vertical gap="middle">
      <Flex gap="small" wrap align="center">
        <Input
          aria-label="Search projects"
          placeholder="Search projects"
          prefix={<SearchOutlined />}
          allowClear
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          onBlur={() => {
            burstKey.current = null;
          }}
          style={{ width: 240 }}
        />
        <Select
          aria-label="Filter by status"
          mode="multiple"
          allowClear
          placeholder="Any status"
          options={STATUS_OPTIONS}
          value={state.status}
          onChange={(status) => update({ status })}
          style={{ minWidth: 200 }}
        />
        <Select
          aria-label="Filter by practice"
          allowClear
          placeholder="Any practice"
          options={practices.map((p) => ({ value: p.id, label: p.name }))}
          value={state.practiceId ?? undefined}
          onChange={(practiceId?: string) => update({ practiceId: practiceId ?? null })}
          style={{ minWidth: 180 }}
          loading={summary.isLoading}
        />
        {summary.data?.canCreate ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            style={{ marginLeft: 'auto' }}
          >
            New project
          </Button>
        ) : null}
      </Flex>
      <PagedTable<Project>
        what="projects"
        one="project"
        list={list}
        columns={columns}
        onChange={onTableChange}
        pagination={{ pageSize: state.pageSize, showSizeChanger: true, pageSizeOptions: PAGE_SIZES.map(String) }}
        page={state.page}
        onFirstPage={() => update({ page: 1 })}
        filtered={filtered}
        noMatch="No projects match these filters"
        onClearFilters={clearFilters}
        none="No projects yet"
      />
      {summary.data?.canCreate ? (
        <NewProjectModal
          open={creating}
          companyId={companyId}
          practices={practices}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </Flex>
  );
}
