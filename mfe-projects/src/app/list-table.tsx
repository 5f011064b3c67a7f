/**
 * The pieces the server-paged tables of this module share (projects, documents): sortable columns and
 * the sort a header click asks for, and the table itself with its failure and empty states. Uses
 * the extra kit, so only the lazily loaded lists import it.
 */
import type { Key } from 'react';
import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Empty, Table, type TableProps } from '@portal/shared/ui/extra';
import { errorMessage } from '@portal/shared/web/api';

/** Named for screen readers; for a column that needs no visible heading. */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

type Order = 'ascend' | 'descend';

function sortOrderOf(sort: string, key: string): Order | null {
  if (sort === key) return 'ascend';
  if (sort === `-${key}`) return 'descend';
  return null;
}

/** A column sorted by the api: `sort` is the list's (`key` ascending, `-key` descending). */
export function sortableColumn<K extends string>(sort: string, key: K) {
  return {
    key,
    sorter: true,
    sortOrder: sortOrderOf(sort, key),
    sortDirections: ['ascend', 'descend'] as Order[],
  };
}

interface Sorter {
  columnKey?: Key;
  order?: Order | null;
}

/** The sort a table's sorter asks for: the column's key, `-key` descending, or `fallback` when cleared. */
export function sortOfSorter<S extends string>(sorter: Sorter | Sorter[], fallback: S): S {
  const one = Array.isArray(sorter) ? sorter[0] : sorter;
  const key = one?.columnKey as string | undefined;
  return key && one.order ? ((one.order === 'descend' ? `-${key}` : key) as S) : fallback;
}

/** A list query that failed: the api's reason when it gave one, and a retry. */
function ListLoadError({ what, query }: { what: string; query: { error?: unknown; refetch: () => unknown } }) {
  return (
    <Alert
      type="error"
      showIcon
      title={`The ${what} could not be loaded`}
      description={errorMessage(query.error) ?? 'Check your connection and try again.'}
      action={
        <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
          Retry
        </Button>
      }
    />
  );
}

interface EmptyProps {
  page: number;
  onFirstPage: () => void;
  filtered: boolean;
  /** Said when no row matches the filters. */
  noMatch: string;
  onClearFilters: () => void;
  /** Said when there are no rows at all. */
  none: string;
}

/**
 * A paged table without rows: nothing while the first page loads, an addressed page past the last one
 * (an old link, or rows gone since), no rows matching the filters, or none at all.
 */
function ListEmpty({
  loading,
  total,
  page,
  onFirstPage,
  filtered,
  noMatch,
  onClearFilters,
  none,
}: EmptyProps & { loading: boolean; total: number }) {
  if (loading) return <span aria-hidden />;
  if (page > 1 && total > 0) {
    return (
      <Empty description={`There is no page ${page}`}>
        <Button onClick={onFirstPage}>Go to the first page</Button>
      </Empty>
    );
  }
  if (filtered) {
    return (
      <Empty description={noMatch}>
        <Button onClick={onClearFilters}>Clear filters</Button>
      </Empty>
    );
  }
  return <Empty description={none} />;
}

/** What PagedTable reads of an RTK list query. */
interface ListQuery<T> {
  isError: boolean;
  error?: unknown;
  isLoading: boolean;
  isFetching: boolean;
  data?: { results: T[]; total: number };
  refetch: () => unknown;
}

/**
 * One page of a list the api pages and sorts (rows keyed by `id`), or the failure with a retry in its
 * place; the pager counts "1 document" / "12 documents" (`one`, `what`).
 */
export function PagedTable<T extends { id: string }>({
  what,
  one,
  list,
  columns,
  onChange,
  pagination,
  ...empty
}: EmptyProps & {
  /** The rows' name, plural ("documents"). */
  what: string;
  one: string;
  list: ListQuery<T>;
  columns: TableProps<T>['columns'];
  onChange: TableProps<T>['onChange'];
  pagination: { pageSize: number; showSizeChanger: boolean; pageSizeOptions?: string[] };
}) {
  if (list.isError) return <ListLoadError what={what} query={list} />;
  const total = list.data?.total ?? 0;
  return (
    <Table<T>
      rowKey="id"
      columns={columns}
      dataSource={list.data?.results ?? []}
      loading={list.isFetching}
      onChange={onChange}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <ListEmpty loading={list.isLoading} total={total} {...empty} /> }}
      pagination={{
        current: empty.page,
        total,
        ...pagination,
        showTotal: (n) => `${n} ${n === 1 ? one : what}`,
      }}
    />
  );
}
