/** The files tab's two views of one folder: a table (list) and cards (grid). Folders come first, then files. */
import type { CSSProperties, KeyboardEvent, ReactNode } from 'react';
import { SwapOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { FileTypeIcon } from '@portal/shared/ui/components';
import {
  Card,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  Flex,
  HistoryOutlined,
  Select,
  Skeleton,
  Space,
  Table,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { Link } from '@portal/shared/web/router';
import { formatDateTime } from '@portal/shared/core/dates';
import { formatBytes, type Folder, type ProjectFile } from '@portal/shared/core/files';
import type { FileSort } from '../model/files-address';
import { BigFileIcon, FolderIcon, userName } from './file-bits';
import { folderDropProps } from './drop-zone';

/** What the views can ask for; the write actions only when the user may write. */
export interface FilesActions {
  folderHref: (folder: Folder) => string;
  openFolder: (folder: Folder) => void;
  renameFolder: (folder: Folder) => void;
  moveFolder: (folder: Folder) => void;
  deleteFolder: (folder: Folder) => void;
  download: (file: ProjectFile) => void;
  versions: (file: ProjectFile) => void;
  renameFile: (file: ProjectFile) => void;
  moveFile: (file: ProjectFile) => void;
  deleteFile: (file: ProjectFile) => void;
}

export interface FilesViewProps {
  folders: Folder[];
  files: ProjectFile[];
  loading: boolean;
  canWrite: boolean;
  actions: FilesActions;
  /** The folder files are being dragged over, outlined. */
  overFolderId: string | null;
  sort: FileSort;
  onSort: (sort: FileSort) => void;
  empty: ReactNode;
}

type Row = { kind: 'folder'; key: string; folder: Folder } | { kind: 'file'; key: string; file: ProjectFile };

const DROP_HIGHLIGHT: CSSProperties = { outline: '2px solid #1677ff', outlineOffset: -2, background: '#e6f4ff' };

/** Enter on a folder's row or card (not on a button inside it) opens it. */
const enterOpens = (open: () => void) => (e: KeyboardEvent<HTMLElement>) => {
  if (e.key === 'Enter' && e.target === e.currentTarget) {
    e.preventDefault();
    open();
  }
};

/** Attributes of a folder's row or card: a drop target, a keyboard stop, a stable test handle. */
const folderProps = (folder: Folder, actions: FilesActions, over: boolean) => ({
  ...folderDropProps(folder),
  'data-testid': `folder-${folder.name}`,
  tabIndex: 0,
  'aria-label': `Folder ${folder.name}`,
  onKeyDown: enterOpens(() => actions.openFolder(folder)),
  onDoubleClick: () => actions.openFolder(folder),
  style: over ? DROP_HIGHLIGHT : undefined,
});

function IconButton({
  label,
  icon,
  onClick,
  danger,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  danger?: boolean;
}) {
  return (
    <Button
      size="small"
      type="text"
      danger={danger}
      icon={icon}
      aria-label={label}
      title={label.split(' ')[0]}
      onClick={onClick}
    />
  );
}

function FolderActions({ folder, actions, canWrite }: { folder: Folder; actions: FilesActions; canWrite: boolean }) {
  if (!canWrite) return null;
  return (
    <Space size={0}>
      <IconButton
        label={`Rename ${folder.name}`}
        icon={<EditOutlined />}
        onClick={() => actions.renameFolder(folder)}
      />
      <IconButton label={`Move ${folder.name}`} icon={<SwapOutlined />} onClick={() => actions.moveFolder(folder)} />
      <IconButton
        label={`Delete ${folder.name}`}
        icon={<DeleteOutlined />}
        danger
        onClick={() => actions.deleteFolder(folder)}
      />
    </Space>
  );
}

function FileActions({ file, actions, canWrite }: { file: ProjectFile; actions: FilesActions; canWrite: boolean }) {
  return (
    <Space size={0} wrap>
      <IconButton label={`Download ${file.name}`} icon={<DownloadOutlined />} onClick={() => actions.download(file)} />
      <IconButton
        label={`Versions of ${file.name}`}
        icon={<HistoryOutlined />}
        onClick={() => actions.versions(file)}
      />
      {canWrite ? (
        <>
          <IconButton label={`Rename ${file.name}`} icon={<EditOutlined />} onClick={() => actions.renameFile(file)} />
          <IconButton label={`Move ${file.name}`} icon={<SwapOutlined />} onClick={() => actions.moveFile(file)} />
          <IconButton
            label={`Delete ${file.name}`}
            icon={<DeleteOutlined />}
            danger
            onClick={() => actions.deleteFile(file)}
          />
        </>
      ) : null}
    </Space>
  );
}

const secondary = (text: string) => <Typography.Text type="secondary">{text}</Typography.Text>;

export function FilesTable({
  folders,
  files,
  loading,
  canWrite,
  actions,
  overFolderId,
  sort,
  onSort,
  empty,
}: FilesViewProps) {
  const rows: Row[] = [
    ...folders.map((folder): Row => ({ kind: 'folder', key: `d-${folder.id}`, folder })),
    ...files.map((file): Row => ({ kind: 'file', key: `f-${file.id}`, file })),
  ];
  const sortOrder = (key: string) =>
    sort === key ? ('ascend' as const) : sort === `-${key}` ? ('descend' as const) : null;
  const onChange: TableProps<Row>['onChange'] = (_p, _f, sorter, { action }) => {
    if (action !== 'sort') return;
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    onSort(s?.order ? (`${s.order === 'descend' ? '-' : ''}${String(s.columnKey)}` as FileSort) : 'name');
  };
  const columns: TableProps<Row>['columns'] = [
    {
      key: 'icon',
      title: 'Type',
      width: 64,
      render: (_v, r) => (r.kind === 'folder' ? <FolderIcon size={18} /> : <FileTypeIcon name={r.file.name} />),
    },
    {
      key: 'name',
      title: 'Name',
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (_v, r) =>
        r.kind === 'folder' ? (
          <Link to={actions.folderHref(r.folder)}>{r.folder.name}</Link>
        ) : (
          <Typography.Text style={{ wordBreak: 'break-word' }}>{r.file.name}</Typography.Text>
        ),
    },
    {
      key: 'size',
      title: 'Size',
      sorter: true,
      sortOrder: sortOrder('size'),
      render: (_v, r) => (r.kind === 'file' ? formatBytes(r.file.size) : secondary('—')),
    },
    {
      key: 'version',
      title: 'Version',
      render: (_v, r) =>
        r.kind === 'file' ? (
          <Button
            type="link"
            size="small"
            style={{ padding: 0 }}
            onClick={() => actions.versions(r.file)}
            aria-label={`v${r.file.version} of ${r.file.name}: show every version`}
          >
            {`v${r.file.version}`}
          </Button>
        ) : (
          secondary('—')
        ),
    },
    {
      key: 'uploadedBy',
      title: 'Uploaded by',
      render: (_v, r) => (r.kind === 'file' ? userName(r.file.uploadedBy) : secondary('—')),
    },
    {
      key: 'updatedAt',
      title: 'Updated',
      sorter: true,
      sortOrder: sortOrder('updatedAt'),
      render: (_v, r) => (r.kind === 'file' ? formatDateTime(r.file.updatedAt) : secondary('—')),
    },
    {
      key: 'actions',
      title: 'Actions',
      render: (_v, r) =>
        r.kind === 'folder' ? (
          <FolderActions folder={r.folder} actions={actions} canWrite={canWrite} />
        ) : (
          <FileActions file={r.file} actions={actions} canWrite={canWrite} />
        ),
    },
  ];
  return (
    <Table<Row>
      rowKey="key"
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={loading}
      pagination={false}
      onChange={onChange}
      locale={{ emptyText: loading ? ' ' : empty }}
      onRow={(r) =>
        r.kind === 'folder'
          ? (folderProps(r.folder, actions, overFolderId === r.folder.id) as object)
          : ({ 'data-testid': `file-${r.file.name}` } as object)
      }
      showSorterTooltip={false}
    />
  );
}

const GRID_SORTS: { value: FileSort; label: string }[] = [
  { value: 'name', label: 'Name (A to Z)' },
  { value: '-name', label: 'Name (Z to A)' },
  { value: '-updatedAt', label: 'Newest first' },
  { value: 'updatedAt', label: 'Oldest first' },
  { value: '-size', label: 'Largest first' },
  { value: 'size', label: 'Smallest first' },
];

export function GridSortSelect({ sort, onSort }: { sort: FileSort; onSort: (sort: FileSort) => void }) {
  return (
    <Select aria-label="Sort files" value={sort} onChange={onSort} options={GRID_SORTS} style={{ minWidth: 160 }} />
  );
}

const CARD_WIDTH = 200;

export function FilesGrid({ folders, files, loading, canWrite, actions, overFolderId, empty }: FilesViewProps) {
  if (loading && !folders.length && !files.length) return <Skeleton active />;
  if (!folders.length && !files.length) return <>{empty}</>;
  return (
    <Flex wrap gap="middle" role="list" aria-label="Files and folders" style={{ opacity: loading ? 0.6 : 1 }}>
      {folders.map((folder) => (
        <div
          key={folder.id}
          role="listitem"
          {...folderProps(folder, actions, overFolderId === folder.id)}
          style={{ width: CARD_WIDTH, borderRadius: 8, ...(overFolderId === folder.id ? DROP_HIGHLIGHT : {}) }}
        >
          <Card
            size="small"
            hoverable
            style={{ height: '100%' }}
            actions={canWrite ? [<FolderActions key="a" folder={folder} actions={actions} canWrite />] : undefined}
          >
            <Flex vertical align="center" gap="small">
              <FolderIcon size={44} />
              <Link to={actions.folderHref(folder)} style={{ wordBreak: 'break-word', textAlign: 'center' }}>
                {folder.name}
              </Link>
            </Flex>
          </Card>
        </div>
      ))}
      {files.map((file) => (
        <div key={file.id} role="listitem" data-testid={`file-${file.name}`} style={{ width: CARD_WIDTH }}>
          <Card
            size="small"
            style={{ height: '100%' }}
            actions={[<FileActions key="a" file={file} actions={actions} canWrite={canWrite} />]}
          >
            <Flex vertical align="center" gap={4}>
              <BigFileIcon name={file.name} />
              <Typography.Text strong style={{ wordBreak: 'break-word', textAlign: 'center' }}>
                {file.name}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {`${formatBytes(file.size)} · v${file.version} · ${formatDateTime(file.updatedAt)}`}
              </Typography.Text>
            </Flex>
          </Card>
        </div>
      ))}
    </Flex>
  );
}
