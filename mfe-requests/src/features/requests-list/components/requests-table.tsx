/**
 * One page of requests as the api pages and sorts them, with its failure (a retry) and empty states,
 * and the row selection staff managers use for bulk changes.
 */
import type { Key } from 'react';
import { Link } from '@portal/shared/web/router';
import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Empty, Flex, Table, Tag, Typography, type TableProps } from '@portal/shared/ui/extra';
import { formatDate } from '@portal/shared/core/dates';
import {
  REQUEST_PRIORITY_LABELS,
  REQUEST_STATUS_LABELS,
  type RequestList,
  type RequestSort,
  type RequestSummary,
} from '@portal/shared/core/requests';
import { errorMessage } from '@portal/shared/web/api';
import {
  isOverdueLocally,
  personName,
  REQUEST_OVERDUE_COLOR,
  REQUEST_PRIORITY_COLORS,
  REQUEST_STATUS_COLORS,
} from '../../../app/labels';
import { requestPath } from '../../../app/paths';
import { DEFAULT_SORT, PAGE_SIZES, type RequestsListState } from '../model/list-state';

type Order = 'ascend' | 'descend';
type SortKey = 'reference' | 'title' | 'status' | 'priority' | 'dueDate' | 'updatedAt';

function sortableColumn(sort: RequestSort, key: SortKey) {
  return {
    key,
    sorter: true,
    sortOrder: sort === key ? 'ascend' : sort === `-${key}` ? 'descend' : null,
    sortDirections: ['ascend', 'descend'] as Order[],
  } as const;
}

interface Sorter {
  columnKey?: Key;
  order?: Order | null;
}

function sortOfSorter(sorter: Sorter | Sorter[]): RequestSort {
  const one = Array.isArray(sorter) ? sorter[0] : sorter;
  const key = one?.columnKey as string | undefined;
  return key && one.order ? ((one.order === 'descend' ? `-${key}` : key) as RequestSort) : DEFAULT_SORT;
}

export function assigneeNames(r: Pick<RequestSummary, 'assignees' | 'teams'>): string {
  return [...r.assignees.map(personName), ...r.teams.map((t) => `Team: ${t.name}`)].join(', ');
}

interface ListQuery {
  isError: boolean;
  error?: unknown;
  isLoading: boolean;
  isFetching: boolean;
  data?: RequestList;
  refetch: () => unknown;
}

export function RequestsTable({
  list,
  state,
  filtered,
  onChange,
  selection,
}: {
  list: ListQuery;
  state: RequestsListState;
  filtered: boolean;
  onChange: (changes: Partial<RequestsListState>) => void;
  /** Staff managers: the chosen rows' ids, across pages. */
  selection?: { keys: string[]; onChange: (keys: string[]) => void };
}) {
  if (list.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="The requests could not be loaded"
        description={errorMessage(list.error) ?? 'Check your connection and try again.'}
        action={
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()}>
            Retry
          </Button>
        }
      />
    );
  }

  const sortable = (key: SortKey) => sortableColumn(state.sort, key);
  const columns: TableProps<RequestSummary>['columns'] = [
    {
      ...sortable('reference'),
      title: 'Reference',
      render: (_: unknown, r: RequestSummary) => <Link to={requestPath(r.id)}>{r.reference}</Link>,
    },
    {
      ...sortable('title'),
      title: 'Title',
      render: (_: unknown, r: RequestSummary) => <Link to={requestPath(r.id)}>{r.title}</Link>,
    },
    {
      ...sortable('status'),
      title: 'Status',
      render: (_: unknown, r: RequestSummary) => (
        <Tag color={REQUEST_STATUS_COLORS[r.status]}>{REQUEST_STATUS_LABELS[r.status]}</Tag>
      ),
    },
    {
      ...sortable('priority'),
      title: 'Priority',
      render: (_: unknown, r: RequestSummary) => (
        <Tag color={REQUEST_PRIORITY_COLORS[r.priority]}>{REQUEST_PRIORITY_LABELS[r.priority]}</Tag>
      ),
    },
    {
      ...sortable('dueDate'),
      title: 'Due date',
      render: (_: unknown, r: RequestSummary) =>
        r.dueDate ? (
          <Flex gap={4} align="center" wrap>
            <span>{formatDate(r.dueDate)}</span>
            {/* the user's own day, not the server's (r.overdue), so the mark agrees with the date beside it */}
            {isOverdueLocally(r) ? <Tag color={REQUEST_OVERDUE_COLOR}>Overdue</Tag> : null}
          </Flex>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      key: 'assignees',
      title: 'Assignees',
      render: (_: unknown, r: RequestSummary) =>
        assigneeNames(r) || <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      key: 'project',
      title: 'Project',
      render: (_: unknown, r: RequestSummary) =>
        r.project?.title ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    { ...sortable('updatedAt'), title: 'Updated', render: (_: unknown, r: RequestSummary) => formatDate(r.updatedAt) },
  ];

  const onTableChange: TableProps<RequestSummary>['onChange'] = (pagination, _filters, sorter, { action }) => {
    if (action === 'sort') {
      onChange({ sort: sortOfSorter(sorter) });
    } else if (action === 'paginate') {
      const pageSize = pagination.pageSize ?? state.pageSize;
      onChange(pageSize !== state.pageSize ? { pageSize } : { page: pagination.current ?? 1 });
    }
  };

  const total = list.data?.total ?? 0;
  let emptyText;
  if (list.isLoading) emptyText = <span aria-hidden />;
  else if (state.page > 1 && total > 0) {
    emptyText = (
      <Empty description={`There is no page ${state.page}`}>
        <Button onClick={() => onChange({ page: 1 })}>Go to the first page</Button>
      </Empty>
    );
  } else if (filtered) {
    // "Clear filters" is the filter bar's: one button of that name on the page
    emptyText = <Empty description="No requests match these filters" />;
  } else emptyText = <Empty description="No requests yet" />;

  return (
    <Table<RequestSummary>
      rowKey="id"
      columns={columns}
      dataSource={list.data?.results ?? []}
      loading={list.isFetching}
      onChange={onTableChange}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText }}
      rowSelection={
        selection
          ? {
              selectedRowKeys: selection.keys,
              preserveSelectedRowKeys: true,
              onChange: (keys) => selection.onChange(keys.map(String)),
              getTitleCheckboxProps: () => ({ 'aria-label': 'Select all requests on this page' }),
              getCheckboxProps: (r) => ({ 'aria-label': `Select ${r.reference}` }),
            }
          : undefined
      }
      pagination={{
        current: state.page,
        total,
        pageSize: state.pageSize,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES.map(String),
        showTotal: (n) => `${n} ${n === 1 ? 'request' : 'requests'}`,
      }}
    />
  );
}
