import { useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Empty, Flex, PlusOutlined, Table, type TableProps } from '@portal/shared/ui/extra';
import { Link } from '@portal/shared/web/router';
import { pageParam, type Control, type Project } from '@portal/shared/core/projects';
import { controlPath } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { pageValue, useAddress } from '../hooks/use-address';
import { controlCreateBody } from '../model/control-body';
import { ControlFormModal } from './control-form-modal';
import { LoadFailedEmpty } from './page-states';
import { SearchBox } from './search-box';

export const CONTROLS_PAGE_SIZE = 25;
const PARAMS = { page: 'controlsPage', search: 'controlSearch', sort: 'controlSort' } as const;
const SORTS = ['name', '-name', 'title', '-title'] as const;
type ControlSort = (typeof SORTS)[number];

/** The project's controls, searched, sorted and paged through the address (`controlsPage`, `control*`). */
export function ControlsTab({ project }: { project: Project }) {
  const [params, change] = useAddress();
  const page = pageParam(params, PARAMS.page);
  const search = params.get(PARAMS.search)?.trim() || undefined;
  const rawSort = params.get(PARAMS.sort);
  const sort = (SORTS as readonly string[]).includes(rawSort ?? '') ? (rawSort as ControlSort) : undefined;
  const list = projectsApi.useProjectsControlsQuery({
    projectId: project.id,
    page,
    pageSize: CONTROLS_PAGE_SIZE,
    search,
    sort,
  });
  const [createControl] = projectsApi.useProjectsControlCreateMutation();
  const [creating, setCreating] = useState(false);

  const order = (key: 'name' | 'title') =>
    sort === key || (!sort && key === 'name') ? ('ascend' as const) : sort === `-${key}` ? ('descend' as const) : null;

  const onChange: TableProps<Control>['onChange'] = (pagination, _filters, sorter, { action }) => {
    if (action === 'paginate') change({ [PARAMS.page]: pageValue(pagination.current) });
    else if (action === 'sort') {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const next = s?.order ? `${s.order === 'descend' ? '-' : ''}${String(s.columnKey)}` : null;
      change({ [PARAMS.sort]: next === 'name' ? null : next, [PARAMS.page]: null });
    }
  };

  const columns: TableProps<Control>['columns'] = [
    {
      key: 'name',
      title: 'Control ID',
      sorter: true,
      sortOrder: order('name'),
      render: (_v, c) => <Link to={controlPath(project.id, c.id)}>{c.name}</Link>,
      width: 160,
    },
    { key: 'title', title: 'Title', dataIndex: 'title', sorter: true, sortOrder: order('title') },
    {
      key: 'tasks',
      title: 'Linked tasks',
      render: (_v, c) => (
        <span aria-label={`${c.tasksDone} of ${c.taskCount} linked tasks done`}>{`${c.tasksDone}/${c.taskCount}`}</span>
      ),
    },
    { key: 'pointsOfFocus', title: 'Points of focus', dataIndex: 'pointOfFocusCount' },
  ];

  return (
    <Flex vertical gap="middle">
      <Flex gap="small" wrap align="center">
        <SearchBox
          label="Search controls"
          placeholder="Search controls by ID or title"
          value={search ?? ''}
          onSearch={(text) => change({ [PARAMS.search]: text, [PARAMS.page]: null }, { replace: true })}
        />
        {project.permissions.write ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            style={{ marginInlineStart: 'auto' }}
          >
            New control
          </Button>
        ) : null}
      </Flex>
      <Table<Control>
        rowKey="id"
        columns={columns}
        dataSource={list.currentData?.results ?? []}
        loading={list.isFetching}
        onChange={onChange}
        locale={{
          emptyText: list.isError ? (
            <LoadFailedEmpty what="controls" onRetry={() => void list.refetch()} />
          ) : (
            <Empty
              description={
                search ? `No controls match "${search}".` : page > 1 ? `There is no page ${page}.` : 'No controls yet.'
              }
            />
          ),
        }}
        pagination={{
          current: page,
          pageSize: CONTROLS_PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => `${total} ${total === 1 ? 'control' : 'controls'}`,
        }}
      />
      <ControlFormModal
        title="New control"
        okText="Create control"
        open={creating}
        onClose={() => setCreating(false)}
        onSubmit={(values) => createControl({ projectId: project.id, body: controlCreateBody(values) }).unwrap()}
      />
    </Flex>
  );
}
