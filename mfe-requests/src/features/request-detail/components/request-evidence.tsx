import { useRef, useState, type ChangeEvent, type KeyboardEvent, type MouseEvent } from 'react';
import { theme } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { FileTypeIcon } from '@portal/shared/ui/components';
import {
  Card,
  DeleteOutlined,
  Flex,
  InboxOutlined,
  Modal,
  Table,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { downloadSignedFile } from '@portal/shared/web/download';
import { useFileDrop, useStrayFileDropGuard } from '@portal/shared/web/hooks';
import { formatDateTime } from '@portal/shared/core/dates';
import { formatBytes } from '@portal/shared/core/files';
import type { RequestDetail, RequestFile } from '@portal/shared/core/requests';
import { useRequestFileDeleteMutation } from '../../../app/requests-api';
import type { EvidenceUploads as Uploads } from '../hooks/use-evidence-uploads';
import { personName } from '../model/labels';
import { EvidenceUploads } from './evidence-uploads';

export const DROP_TEXT = 'Drop evidence files here or click to browse';

/** Why the evidence cannot change now (null when it can, or when nothing needs saying). */
export function evidenceLockedNote(request: RequestDetail): string | null {
  if (request.permissions.uploadEvidence) return null;
  if (request.status === 'submitted') return 'Evidence is under review.';
  if (request.status === 'accepted' || request.status === 'canceled') return 'This request is closed.';
  return null;
}

/** Where evidence is dropped or chosen: the whole zone opens the file picker too. */
function EvidenceDropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const { token } = theme.useToken();
  const picker = useRef<HTMLInputElement>(null);
  const { ref, over } = useFileDrop<HTMLDivElement>(onFiles);
  const browse = (e: MouseEvent | KeyboardEvent) => {
    // the input's own click bubbles here: opening the picker again would loop
    if (e.target === picker.current) return;
    picker.current?.click();
  };
  const onPicked = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(e.target.files ?? []);
    e.target.value = '';
    if (chosen.length) onFiles(chosen);
  };
  return (
    <div
      ref={ref}
      role="button"
      tabIndex={0}
      data-testid="evidence-drop-zone"
      data-drag-over={over || undefined}
      onClick={browse}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          browse(e);
        }
      }}
      style={{
        padding: '24px 16px',
        textAlign: 'center',
        cursor: 'pointer',
        borderRadius: token.borderRadiusLG,
        border: `1px dashed ${over ? token.colorPrimary : token.colorBorder}`,
        background: over ? token.colorPrimaryBg : token.colorFillAlter,
        transition: 'background 0.15s, border-color 0.15s',
      }}
    >
      <InboxOutlined aria-hidden style={{ fontSize: 32, color: token.colorPrimary }} />
      <p style={{ margin: '8px 0 0' }}>{DROP_TEXT}</p>
      <input ref={picker} type="file" multiple hidden aria-label="Evidence files to upload" onChange={onPicked} />
    </div>
  );
}

/**
 * The request's evidence: the files with their download (one at a time per file: a second click while
 * the link is asked does nothing) and (when allowed) removal, and, while the caller may add evidence, a
 * drop zone with the uploads' progress (`uploads`: the request's, held by the page). When evidence
 * cannot change, a note says why.
 */
export function RequestEvidence({ request, uploads }: { request: RequestDetail; uploads: Uploads }) {
  const [modal, modalHolder] = Modal.useModal();
  const [remove] = useRequestFileDeleteMutation();
  const [downloading, setDownloading] = useState<ReadonlySet<string>>(() => new Set());
  const canUpload = request.permissions.uploadEvidence;
  useStrayFileDropGuard(canUpload);
  const note = evidenceLockedNote(request);

  const confirmRemove = (file: RequestFile) =>
    void modal.confirm({
      title: `Remove ${file.name}?`,
      content: 'The file is deleted from this request’s evidence.',
      okText: 'Remove',
      okButtonProps: { danger: true },
      // a refusal (the request moved on meanwhile) is the shell's toast; the page refreshes either way
      onOk: () =>
        remove({ requestId: request.id, fileId: file.id })
          .unwrap()
          .catch(() => undefined),
    });

  // the ref answers a second click of the same moment, before the state shows the first
  const asking = useRef(new Set<string>());
  const download = async (file: RequestFile) => {
    if (asking.current.has(file.id)) return;
    asking.current.add(file.id);
    setDownloading((all) => new Set(all).add(file.id));
    try {
      await downloadSignedFile(file.id);
    } finally {
      asking.current.delete(file.id);
      setDownloading((all) => {
        const rest = new Set(all);
        rest.delete(file.id);
        return rest;
      });
    }
  };

  const columns: TableProps<RequestFile>['columns'] = [
    {
      key: 'name',
      title: 'File',
      render: (_v, f) => (
        <Flex gap="small" align="center">
          <FileTypeIcon name={f.name} />
          <Button
            type="link"
            style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'left', wordBreak: 'break-word' }}
            title="Download"
            loading={downloading.has(f.id)}
            aria-busy={downloading.has(f.id) || undefined}
            onClick={() => void download(f)}
          >
            {f.name}
          </Button>
        </Flex>
      ),
    },
    { key: 'size', title: 'Size', width: 100, render: (_v, f) => formatBytes(f.size) },
    { key: 'uploadedBy', title: 'Uploaded by', render: (_v, f) => personName(f.uploadedBy) },
    {
      key: 'createdAt',
      title: 'Uploaded',
      render: (_v, f) => <time dateTime={f.createdAt}>{formatDateTime(f.createdAt)}</time>,
    },
    {
      key: 'actions',
      title: '',
      width: 56,
      render: (_v, f) =>
        f.canDelete ? (
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={`Remove ${f.name}`}
            title="Remove"
            onClick={() => confirmRemove(f)}
          />
        ) : null,
    },
  ];

  return (
    <Card title="Evidence" data-testid="request-evidence">
      {modalHolder}
      <Flex vertical gap="middle">
        {canUpload ? <EvidenceDropZone onFiles={uploads.add} /> : null}
        {note ? (
          <Typography.Text type="secondary" data-testid="evidence-note">
            {note}
          </Typography.Text>
        ) : null}
        <EvidenceUploads
          items={uploads.items}
          onCancel={uploads.cancel}
          onDismiss={uploads.dismiss}
          onClear={uploads.clearFinished}
        />
        <Table<RequestFile>
          rowKey="id"
          size="small"
          pagination={false}
          columns={columns}
          dataSource={request.files}
          locale={{ emptyText: <Typography.Text type="secondary">No evidence yet.</Typography.Text> }}
        />
      </Flex>
    </Card>
  );
}
