import { Button } from '@portal/shared/ui/button';
import { DownloadOutlined, Flex, Modal, Table, Typography, type TableProps } from '@portal/shared/ui/extra';
import { Link } from '@portal/shared/web/router';
import { formatDateTime } from '@portal/shared/core/dates';
import { formatBytes, type FileVersion } from '@portal/shared/core/files';
import { filesApi } from '../../../app/files-api';
import { taskPath } from '../../../app/paths';
import { LoadFailedEmpty } from '../../projects/components/page-states';
import { startDownload, userName } from './file-bits';

/** A file's versions, newest first, each with its uploader, size, date, SHA-256 and its own download. */
export function VersionsModal({
  projectId,
  file,
  onClose,
}: {
  projectId: string;
  file: { id: string; name: string } | null;
  onClose: () => void;
}) {
  const query = filesApi.useFilesGetQuery({ projectId, fileId: file?.id ?? '' }, { skip: !file });
  const detail = file && query.currentData?.id === file.id ? query.currentData : undefined;
  const columns: TableProps<FileVersion>['columns'] = [
    { key: 'version', title: 'Version', render: (_v, v) => `v${v.version}`, width: 80 },
    { key: 'uploadedBy', title: 'Uploaded by', render: (_v, v) => userName(v.uploadedBy) },
    { key: 'size', title: 'Size', render: (_v, v) => formatBytes(v.size) },
    { key: 'createdAt', title: 'Uploaded', render: (_v, v) => formatDateTime(v.createdAt) },
    {
      key: 'sha256',
      title: 'SHA-256',
      render: (_v, v) => (
        <Typography.Text
          code
          copyable={{ text: v.sha256, tooltips: ['Copy the SHA-256', 'Copied'] }}
          style={{ wordBreak: 'break-all', fontSize: 12 }}
        >
          {v.sha256}
        </Typography.Text>
      ),
    },
    {
      key: 'download',
      title: 'Download',
      render: (_v, v) => (
        <Button
          size="small"
          icon={<DownloadOutlined />}
          aria-label={`Download version ${v.version}`}
          onClick={() => startDownload(v.fileId, v.id)}
        />
      ),
    },
  ];
  return (
    <Modal
      title={file ? `Versions of ${file.name}` : 'Versions'}
      open={!!file}
      onCancel={onClose}
      footer={null}
      width={900}
      destroyOnHidden
    >
      {detail ? (
        <Flex vertical gap="middle">
          <Table<FileVersion>
            rowKey="id"
            size="small"
            pagination={false}
            columns={columns}
            dataSource={detail.versions}
            aria-label="Versions"
          />
          <div>
            <Typography.Title level={5}>Attached to tasks</Typography.Title>
            {detail.tasks.length ? (
              <Flex vertical gap={4}>
                {detail.tasks.map((t) => (
                  <Link key={t.id} to={taskPath(projectId, t.id)}>
                    {[t.referenceId, t.title].filter(Boolean).join(' ')}
                  </Link>
                ))}
              </Flex>
            ) : (
              <Typography.Text type="secondary">Not attached to any task.</Typography.Text>
            )}
          </div>
        </Flex>
      ) : query.isError && !query.isFetching ? (
        <LoadFailedEmpty what="versions" onRetry={() => void query.refetch()} />
      ) : (
        <Table<FileVersion> rowKey="id" size="small" loading pagination={false} columns={columns} dataSource={[]} />
      )}
    </Modal>
  );
}
