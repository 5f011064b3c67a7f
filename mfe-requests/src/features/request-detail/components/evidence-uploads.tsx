import { Button } from '@portal/shared/ui/button';
import { Flex, Progress, Typography } from '@portal/shared/ui/extra';
import { formatBytes } from '@portal/shared/core/files';
import { isActiveUpload, type EvidenceUpload } from '../hooks/use-evidence-uploads';

const STATE_TEXT: Partial<Record<EvidenceUpload['status'], string>> = {
  queued: 'Waiting…',
  done: 'Uploaded',
  canceled: 'Canceled',
};

function percent(item: EvidenceUpload): number {
  if (item.status === 'done') return 100;
  return item.total ? Math.min(100, Math.round((item.sent / item.total) * 100)) : 0;
}

function UploadRow({
  item,
  onCancel,
  onDismiss,
}: {
  item: EvidenceUpload;
  onCancel: (key: string) => void;
  onDismiss: (key: string) => void;
}) {
  const status =
    item.status === 'error'
      ? 'exception'
      : item.status === 'done'
        ? 'success'
        : item.status === 'uploading'
          ? 'active'
          : 'normal';
  return (
    <Flex
      data-testid={`upload-${item.name}`}
      data-status={item.status}
      vertical
      gap={2}
      role="listitem"
      aria-label={`Upload of ${item.name}`}
    >
      <Flex justify="space-between" align="center" gap="small">
        <Typography.Text ellipsis style={{ maxWidth: 420 }}>
          {item.name} <Typography.Text type="secondary">{formatBytes(item.total)}</Typography.Text>
        </Typography.Text>
        {isActiveUpload(item.status) ? (
          <Button size="small" onClick={() => onCancel(item.key)} aria-label={`Cancel the upload of ${item.name}`}>
            Cancel
          </Button>
        ) : (
          <Button
            size="small"
            type="text"
            onClick={() => onDismiss(item.key)}
            aria-label={`Dismiss the upload of ${item.name}`}
          >
            Dismiss
          </Button>
        )}
      </Flex>
      {item.status === 'error' || (item.status === 'canceled' && item.sent === 0) ? null : (
        <Progress percent={percent(item)} size="small" status={status} aria-label={`${item.name} progress`} />
      )}
      <Typography.Text
        type={item.status === 'error' ? 'danger' : 'secondary'}
        role={item.status === 'error' ? 'alert' : undefined}
      >
        {item.status === 'error'
          ? item.message
          : (STATE_TEXT[item.status] ?? `${formatBytes(item.sent)} of ${formatBytes(item.total)}`)}
      </Typography.Text>
    </Flex>
  );
}

/**
 * The files sent to this request: progress, Cancel while on their way, and how each ended. A finished
 * one goes once the file list shows it; a failed or canceled one stays until dismissed.
 */
export function EvidenceUploads({
  items,
  onCancel,
  onDismiss,
  onClear,
}: {
  items: EvidenceUpload[];
  onCancel: (key: string) => void;
  onDismiss: (key: string) => void;
  onClear: () => void;
}) {
  if (!items.length) return null;
  const finished = items.some((i) => !isActiveUpload(i.status));
  return (
    <Flex vertical gap="small">
      <Flex justify="space-between" align="center">
        <Typography.Text strong>Uploads</Typography.Text>
        {finished ? (
          <Button size="small" type="link" onClick={onClear}>
            Clear finished
          </Button>
        ) : null}
      </Flex>
      <Flex vertical gap="middle" role="list" aria-label="Uploads">
        {items.map((item) => (
          <UploadRow key={item.key} item={item} onCancel={onCancel} onDismiss={onDismiss} />
        ))}
      </Flex>
    </Flex>
  );
}
