/**
 * The documents table: every file of the company's projects the user may read, with search, a project
 * filter, sort and page kept in the address, and a download through the signed URL.
 */
import { useCallback, useState } from 'react';
import { Link, useSearchParams } from '@portal/shared/web/router';
import { Button } from '@portal/shared/ui/button';
import {
  DownloadOutlined,
  Flex,
  Input,
  SearchOutlined,
  Select,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { FileTypeIcon } from '@portal/shared/ui/components';
import { formatBytes, type DocumentRow } from '@portal/shared/core/files';
import { formatDateTime } from '@portal/shared/core/dates';
import { publishToast } from '@portal/shared/web/events';
import { useDebouncedText } from '@portal/shared/web/hooks';
import { documentsApi } from '../../../app/documents-api';
import { downloadFile } from '../../../app/download';
import { PagedTable, sortableColumn, sortOfSorter, VISUALLY_HIDDEN } from '../../../app/list-table';
import { projectPath } from '../../../app/paths';
import { projectsApi } from '../../../app/projects-api';
import { UploadError } from '../../../app/upload';
import {
  DEFAULT_SORT,
  documentsQueryOf,
  documentsStateFrom,
  isFiltered,
  PAGE_SIZE,
  withDocumentsState,
  type DocumentsListState,
  type FileSort,
} from '../model/documents-query';

type SortKey = 'name' | 'size' | 'updatedAt';

/** The file's folder in its project's Files tab. */
export const folderLink = (row: DocumentRow) =>
  `${projectPath(row.project.id)}?view=files&folderId=${encodeURIComponent(row.folderId)}`;

export function DocumentsList({ companyId }: { companyId: string }) {
  const [params, setParams] = useSearchParams();
  const state = documentsStateFrom(params);
  const list = documentsApi.useDocumentsListQuery({ companyId, ...documentsQueryOf(state) });
  const projects = projectsApi.useProjectsListQuery({ companyId, pageSize: 200, sort: 'title' });
  const [downloading, setDownloading] = useState<string | null>(null);

  const update = useCallback(
    (changes: Partial<DocumentsListState>, replace = false) =>
      setParams((prev) => withDocumentsState(prev, changes), { replace }),
    [setParams],
  );
  // Refining a search replaces its history entry; the first search of the list pushes one, so Back returns to the list.
  const commitSearch = useCallback(
    (search: string) => update({ search }, state.search !== '' && search !== ''),
    [update, state.search],
  );
  const [searchText, setSearchText] = useDebouncedText(state.search, commitSearch);

  const download = async (row: DocumentRow) => {
    setDownloading(row.id);
    try {
      await downloadFile(row.id);
    } catch (error) {
      publishToast({
        severity: 'error',
        summary: error instanceof UploadError ? error.message : `${row.name} could not be downloaded. Try again.`,
      });
    } finally {
      setDownloading(null);
    }
  };

  const onTableChange: TableProps<DocumentRow>['onChange'] = (pagination, _filters, sorter, { action }) => {
    if (action === 'sort') {
      update({ sort: sortOfSorter<FileSort>(sorter, DEFAULT_SORT) });
    } else if (action === 'paginate') {
      update({ page: pagination.current ?? 1 });
    }
  };

  const sortable = (key: SortKey) => sortableColumn(state.sort, key);

  const columns: TableProps<DocumentRow>['columns'] = [
    {
      ...sortable('name'),
      title: 'Name',
      render: (_: unknown, row: DocumentRow) => (
        <Flex gap="small" align="center">
          <FileTypeIcon name={row.name} />
          <span>{row.name}</span>
        </Flex>
      ),
    },
    {
      key: 'project',
      title: 'Project',
      render: (_: unknown, row: DocumentRow) => <Link to={folderLink(row)}>{row.project.title}</Link>,
    },
    {
      key: 'folder',
      title: 'Folder',
      render: (_: unknown, row: DocumentRow) =>
        row.folderPath ? row.folderPath : <Typography.Text type="secondary">Root</Typography.Text>,
    },
    {
      ...sortable('size'),
      title: 'Size',
      align: 'right',
      render: (_: unknown, row: DocumentRow) => formatBytes(row.size),
    },
    { key: 'version', title: 'Version', align: 'right', render: (_: unknown, row: DocumentRow) => `v${row.version}` },
    {
      ...sortable('updatedAt'),
      title: 'Updated',
      render: (_: unknown, row: DocumentRow) => formatDateTime(row.updatedAt),
    },
    { key: 'uploadedBy', title: 'Uploaded by', render: (_: unknown, row: DocumentRow) => row.uploadedBy?.name ?? '—' },
    {
      key: 'actions',
      title: <span style={VISUALLY_HIDDEN}>Actions</span>,
      fixed: 'right',
      render: (_: unknown, row: DocumentRow) => (
        <Button
          size="small"
          icon={<DownloadOutlined />}
          loading={downloading === row.id}
          onClick={() => void download(row)}
          aria-label={`Download ${row.name}`}
        >
          Download
        </Button>
      ),
    },
  ];

  const clearFilters = () => {
    setSearchText('');
    update({ search: '', projectId: null });
  };

  return (
    <Flex vertical gap="middle">
      <Flex gap="small" wrap align="center">
        <Input
          aria-label="Search documents"
          placeholder="Search documents"
          prefix={<SearchOutlined />}
          allowClear
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          style={{ width: 260 }}
        />
        <Select
          aria-label="Filter by project"
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder="Any project"
          options={(projects.data?.results ?? []).map((p) => ({ value: p.id, label: p.title }))}
          value={state.projectId ?? undefined}
          onChange={(projectId?: string) => update({ projectId: projectId ?? null })}
          loading={projects.isLoading}
          style={{ minWidth: 220 }}
        />
      </Flex>
      <PagedTable<DocumentRow>
        what="documents"
        one="document"
        list={list}
        columns={columns}
        onChange={onTableChange}
        pagination={{ pageSize: PAGE_SIZE, showSizeChanger: false }}
        page={state.page}
        onFirstPage={() => update({ page: 1 })}
        filtered={isFiltered(state)}
        noMatch="No documents match"
        onClearFilters={clearFilters}
        none="No documents yet"
      />
    </Flex>
  );
}
