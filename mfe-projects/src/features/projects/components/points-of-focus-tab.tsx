import { Empty, Flex, Select, Table, Typography, type TableProps } from '@portal/shared/ui/extra';
import { Link } from '@portal/shared/web/router';
import { pageParam, type PointOfFocus, type Project } from '@portal/shared/core/projects';
import { controlPath } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { pageValue, useAddress } from '../hooks/use-address';
import { LoadFailedEmpty } from './page-states';

export const POINTS_OF_FOCUS_PAGE_SIZE = 25;
const PARAMS = { page: 'pointsOfFocusPage', control: 'pointsOfFocusControl' } as const;
/** The control filter offers the project's controls (the api's largest page). */
const CONTROL_CHOICES = 200;

/** Every point of focus of the project, filtered by control and paged through the address (`pointsOfFocusPage`). */
export function PointsOfFocusTab({ project }: { project: Project }) {
  const [params, change] = useAddress();
  const page = pageParam(params, PARAMS.page);
  const controlId = params.get(PARAMS.control) || undefined;
  const list = projectsApi.useProjectsPointsOfFocusQuery({
    projectId: project.id,
    page,
    pageSize: POINTS_OF_FOCUS_PAGE_SIZE,
    controlId,
  });
  const controls = projectsApi.useProjectsControlsQuery({ projectId: project.id, page: 1, pageSize: CONTROL_CHOICES });

  const columns: TableProps<PointOfFocus>['columns'] = [
    {
      key: 'control',
      title: 'Control',
      render: (_v, p) => <Link to={controlPath(project.id, p.controlId)}>{p.controlName}</Link>,
      width: 160,
    },
    { key: 'name', title: 'Name', dataIndex: 'name' },
    {
      key: 'description',
      title: 'Description',
      render: (_v, p) =>
        p.description ? <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{p.description}</Typography.Text> : '—',
    },
  ];

  return (
    <Flex vertical gap="middle">
      <Select
        aria-label="Filter by control"
        placeholder="All controls"
        allowClear
        style={{ maxWidth: 320 }}
        value={controlId}
        onChange={(id?: string) => change({ [PARAMS.control]: id, [PARAMS.page]: null })}
        loading={controls.isFetching}
        showSearch={{ optionFilterProp: 'label' }}
        options={(controls.data?.results ?? []).map((c) => ({ value: c.id, label: `${c.name} — ${c.title}` }))}
      />
      <Table<PointOfFocus>
        rowKey="id"
        columns={columns}
        dataSource={list.currentData?.results ?? []}
        loading={list.isFetching}
        onChange={(pagination, _f, _s, { action }) => {
          if (action === 'paginate') change({ [PARAMS.page]: pageValue(pagination.current) });
        }}
        locale={{
          emptyText: list.isError ? (
            <LoadFailedEmpty what="points of focus" onRetry={() => void list.refetch()} />
          ) : (
            <Empty
              description={
                controlId
                  ? 'This control has no points of focus.'
                  : 'No points of focus yet. Add them on a control’s page.'
              }
            />
          ),
        }}
        pagination={{
          current: page,
          pageSize: POINTS_OF_FOCUS_PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => `${total} ${total === 1 ? 'point of focus' : 'points of focus'}`,
        }}
      />
    </Flex>
  );
}
