import { useRef, useState } from 'react';
import { Spin } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, DeleteOutlined, Modal, Space, Table, Upload, UploadOutlined } from '@portal/shared/ui/extra';
import { FileTypeIcon } from '@portal/shared/ui/components';
import { formatDateTime } from '@portal/shared/core/dates';
import { SYSTEM_SETTING_FILE_MAX_BYTES, type SystemSettingFile } from '@portal/shared/core/settings';
import { errorMessage, fieldErrors } from '@portal/shared/web/api';
import { startDownload } from '@portal/shared/web/download';
import {
  useSettingsFileSignedUrlMutation,
  useSettingsMessageFilesDeleteMutation,
  useSettingsMessageFilesQuery,
  useSettingsMessageFilesUploadMutation,
} from '../api/system-api';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Files attached to a portal message: upload (several at once), download and delete. */
export function MessageFiles({ messageId }: { messageId: string }) {
  const files = useSettingsMessageFilesQuery(messageId);
  const [upload, { isLoading: uploading }] = useSettingsMessageFilesUploadMutation();
  const [remove] = useSettingsMessageFilesDeleteMutation();
  const [signUrl] = useSettingsFileSignedUrlMutation();
  const [modal, modalHolder] = Modal.useModal();
  const [pending, setPending] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const batch = useRef<File[]>([]);

  const send = async (chosen: File[]) => {
    setFailure(null);
    const tooBig = chosen.filter((f) => f.size > SYSTEM_SETTING_FILE_MAX_BYTES);
    if (tooBig.length) {
      setFailure(
        `${tooBig.map((f) => f.name).join(', ')}: files must be at most ${size(SYSTEM_SETTING_FILE_MAX_BYTES)}.`,
      );
      return;
    }
    setPending(chosen.map((f) => f.name));
    try {
      await upload({ id: messageId, files: chosen }).unwrap();
    } catch (error) {
      const detail = fieldErrors(error).flatMap((f) => f.errors);
      setFailure(detail.length ? detail.join(' ') : (errorMessage(error) ?? 'The files could not be uploaded.'));
    } finally {
      setPending([]);
    }
  };

  // The api serves files only through a short-lived signed link: ask for one, then let the browser fetch it as an attachment.
  const download = async (f: SystemSettingFile) => {
    setFailure(null);
    try {
      startDownload(await signUrl(f.id).unwrap());
    } catch (error) {
      setFailure(errorMessage(error) ?? `${f.name} could not be downloaded.`);
    }
  };

  const confirmDelete = (f: SystemSettingFile) =>
    modal.confirm({
      title: `Delete ${f.name}?`,
      okText: 'Delete file',
      okButtonProps: { danger: true },
      onOk: async () => {
        setFailure(null);
        try {
          await remove({ id: messageId, fileId: f.id }).unwrap();
        } catch (error) {
          setFailure(errorMessage(error) ?? 'The file could not be deleted.');
        }
      },
    });

  return (
    <div>
      {modalHolder}
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Upload
          multiple
          showUploadList={false}
          disabled={uploading}
          // Files are sent by our own call (one request per choice), so the api's errors reach the toasts too.
          beforeUpload={(file, chosen) => {
            batch.current.push(file);
            if (batch.current.length === chosen.length) {
              const all = batch.current;
              batch.current = [];
              void send(all);
            }
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} disabled={uploading}>
            Attach files
          </Button>
        </Upload>
        {pending.length ? (
          <div role="status" aria-live="polite">
            <Spin size="small" /> Uploading {pending.length === 1 ? pending[0] : `${pending.length} files`}…
          </div>
        ) : null}
        {failure ? <Alert type="error" showIcon title={failure} closable onClose={() => setFailure(null)} /> : null}
        {files.isError ? (
          <Alert
            type="error"
            showIcon
            title="The attached files could not be loaded."
            action={<Button onClick={() => files.refetch()}>Try again</Button>}
          />
        ) : (
          <Table<SystemSettingFile>
            rowKey="id"
            size="small"
            pagination={false}
            loading={files.isLoading}
            dataSource={files.data ?? []}
            locale={{ emptyText: 'No files attached.' }}
            columns={[
              {
                title: 'File',
                key: 'name',
                render: (_v, f) => (
                  <Space>
                    <FileTypeIcon name={f.name} />
                    <Button
                      type="link"
                      size="small"
                      style={{ padding: 0 }}
                      aria-label={`Download ${f.name}`}
                      onClick={() => void download(f)}
                    >
                      {f.name}
                    </Button>
                  </Space>
                ),
              },
              { title: 'Size', key: 'size', render: (_v, f) => size(f.size) },
              { title: 'Added', key: 'createdAt', render: (_v, f) => formatDateTime(f.createdAt) },
              {
                title: 'Actions',
                key: 'actions',
                render: (_v, f) => (
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`Delete ${f.name}`}
                    onClick={() => void confirmDelete(f)}
                  />
                ),
              },
            ]}
          />
        )}
      </Space>
    </div>
  );
}
