import { useCallback, useRef, useState, type ChangeEvent } from 'react';
import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { useStrayFileDropGuard } from '@portal/shared/web/hooks';
import { FileTypeIcon } from '@portal/shared/ui/components';
import {
  Alert,
  Card,
  DownloadOutlined,
  Flex,
  Modal,
  PaperClipOutlined,
  Select,
  Space,
  Table,
  Typography,
  UploadOutlined,
  DisconnectOutlined,
  type TableProps,
} from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import { formatBytes, type TaskFile } from '@portal/shared/core/files';
import type { Project } from '@portal/shared/core/projects';
import { filesApi } from '../../../app/files-api';
import { useDebounced } from '../../projects/hooks/use-debounced';
import { LoadFailedEmpty } from '../../projects/components/page-states';
import { useUploads } from '../hooks/use-uploads';
import { apiErrorMessage } from '../model/errors';
import { rootOf } from '../model/folder-tree';
import { askUploadAsVersion, startDownload, userName } from './file-bits';
import { UploadPanel } from './upload-panel';

/** The picker: the project's files in every folder, found by name. */
function AttachPicker({
  project,
  taskId,
  attached,
  onFailure,
}: {
  project: Project;
  taskId: string;
  attached: Set<string>;
  onFailure: (message: string | null) => void;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const search = useDebounced(text.trim());
  const [attach, { isLoading }] = filesApi.useFilesTaskAttachMutation();
  const found = filesApi.useFilesProjectSearchQuery(
    { companyId: project.companyId, projectId: project.id, pageSize: 20, sort: 'name', ...(search ? { search } : {}) },
    { skip: !open },
  );
  const options = (found.currentData?.results ?? []).map((f) => ({
    value: f.id,
    label: f.folderPath ? `${f.folderPath} / ${f.name}` : f.name,
    disabled: attached.has(f.id),
  }));
  const choose = async (fileId: string) => {
    onFailure(null);
    try {
      await attach({ projectId: project.id, taskId, fileId }).unwrap();
    } catch (error) {
      onFailure(apiErrorMessage(error, 'The file could not be attached.'));
    }
  };
  return (
    <Select<string>
      aria-label="Attach file"
      placeholder={
        <span>
          <PaperClipOutlined /> Attach file
        </span>
      }
      style={{ minWidth: 260 }}
      value={null}
      showSearch={{ filterOption: false, onSearch: setText, searchValue: text }}
      onOpenChange={setOpen}
      loading={found.isFetching || isLoading}
      notFoundContent={found.isFetching ? 'Searching…' : 'No files found in this project.'}
      options={options}
      onChange={(fileId) => void choose(fileId)}
    />
  );
}

/**
 * The task's files: each downloadable, and for writers detachable; writers attach a file of the project
 * (any folder) or upload new ones, which go to the project's root folder attached to the task.
 */
export function TaskFiles({ project, taskId }: { project: Project; taskId: string }) {
  const canWrite = project.permissions.write;
  const files = filesApi.useFilesOfTaskQuery({ projectId: project.id, taskId });
  const folders = filesApi.useFilesFoldersQuery(project.id, { skip: !canWrite });
  const root = rootOf(folders.data);
  const [detach] = filesApi.useFilesTaskDetachMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const [modal, modalHolder] = Modal.useModal();
  const askVersion = useCallback(
    (name: string, folderName: string) => askUploadAsVersion(modal, name, folderName),
    [modal],
  );
  const uploads = useUploads(project.id, askVersion, taskId);
  useStrayFileDropGuard();
  const picker = useRef<HTMLInputElement>(null);
  const foldersFailed = canWrite && folders.isError && !folders.isFetching;

  const onPicked = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(e.target.files ?? []);
    e.target.value = '';
    if (!chosen.length) return;
    if (root) void uploads.add(chosen, { folderId: root.id, folderName: 'Files', taskId });
    else setFailure('Nothing was uploaded: the project’s folders are not loaded yet. Try again in a moment.');
  };

  const confirmDetach = (file: TaskFile) =>
    void modal.confirm({
      title: `Detach ${file.name} from this task?`,
      content: 'The file stays in the project’s files.',
      okText: 'Detach',
      okButtonProps: { danger: true },
      onOk: () =>
        detach({ projectId: project.id, taskId, fileId: file.id })
          .unwrap()
          .catch((error: unknown) => setFailure(apiErrorMessage(error, 'The file could not be detached.'))),
    });

  const columns: TableProps<TaskFile>['columns'] = [
    { key: 'icon', title: 'Type', width: 64, render: (_v, f) => <FileTypeIcon name={f.name} /> },
    {
      key: 'name',
      title: 'Name',
      render: (_v, f) => <Typography.Text style={{ wordBreak: 'break-word' }}>{f.name}</Typography.Text>,
    },
    { key: 'size', title: 'Size', render: (_v, f) => formatBytes(f.size) },
    { key: 'version', title: 'Version', render: (_v, f) => `v${f.version}` },
    {
      key: 'attached',
      title: 'Attached',
      render: (_v, f) => `${userName(f.attachedBy)}, ${formatDateTime(f.attachedAt)}`,
    },
    {
      key: 'actions',
      title: 'Actions',
      render: (_v, f) => (
        <Space size={0}>
          <Button
            size="small"
            type="text"
            icon={<DownloadOutlined />}
            aria-label={`Download ${f.name}`}
            title="Download"
            onClick={() => startDownload(f.id)}
          />
          {canWrite ? (
            <Button
              size="small"
              type="text"
              danger
              icon={<DisconnectOutlined />}
              aria-label={`Detach ${f.name}`}
              title="Detach"
              onClick={() => confirmDetach(f)}
            />
          ) : null}
        </Space>
      ),
    },
  ];

  const list = files.currentData ?? [];
  return (
    <Card
      title="Files"
      data-testid="task-files"
      extra={
        canWrite ? (
          <Space wrap>
            <AttachPicker
              project={project}
              taskId={taskId}
              attached={new Set(list.map((f) => f.id))}
              onFailure={setFailure}
            />
            <Button icon={<UploadOutlined />} disabled={!root} onClick={() => picker.current?.click()}>
              Upload
            </Button>
            <input
              ref={picker}
              type="file"
              multiple
              hidden
              aria-label="Files to upload to this task"
              onChange={onPicked}
            />
          </Space>
        ) : null
      }
    >
      {modalHolder}
      <Flex vertical gap="middle">
        {failure ? (
          <Alert type="error" showIcon title={failure} closable={{ onClose: () => setFailure(null) }} />
        ) : null}
        {foldersFailed ? (
          <Alert
            type="warning"
            showIcon
            title="The project’s folders could not be loaded, so files cannot be uploaded here yet."
            action={
              <Button size="small" icon={<ReloadOutlined />} onClick={() => void folders.refetch()}>
                Try again
              </Button>
            }
          />
        ) : null}
        {files.isError && !files.isFetching ? (
          <LoadFailedEmpty what="task’s files" onRetry={() => void files.refetch()} />
        ) : (
          <Table<TaskFile>
            rowKey="id"
            size="small"
            pagination={false}
            loading={files.isFetching}
            columns={columns}
            dataSource={list}
            locale={{ emptyText: 'No files attached to this task.' }}
          />
        )}
        <UploadPanel items={uploads.items} onCancel={uploads.cancel} onClear={uploads.clearFinished} />
      </Flex>
    </Card>
  );
}
