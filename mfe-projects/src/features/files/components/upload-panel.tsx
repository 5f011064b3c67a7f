import { useEffect, useRef, useState } from 'react';
import { Button } from '@portal/shared/ui/button';
import { Card, Flex, Progress, Typography } from '@portal/shared/ui/extra';
import { VISUALLY_HIDDEN } from '@portal/shared/ui/components';
import { formatBytes } from '@portal/shared/core/files';
import type { UploadItem } from '../hooks/use-uploads';

const STATE_TEXT: Partial<Record<UploadItem['status'], string>> = {
  checking: 'Checking…',
  queued: 'Waiting…',
  done: 'Done',
  canceled: 'Canceled',
};

function percent(item: UploadItem): number {
  if (item.status === 'done') return 100;
  return item.total ? Math.min(100, Math.round((item.sent / item.total) * 100)) : 0;
}

function UploadRow({ item, onCancel }: { item: UploadItem; onCancel: (key: string) => void }) {
  const active = item.status === 'checking' || item.status === 'queued' || item.status === 'uploading';
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
        <Typography.Text ellipsis style={{ maxWidth: 360 }}>
          {item.name}{' '}
          <Typography.Text type="secondary">{`to ${item.folderName} · ${formatBytes(item.total)}`}</Typography.Text>
        </Typography.Text>
        {active ? (
          <Button size="small" onClick={() => onCancel(item.key)} aria-label={`Cancel the upload of ${item.name}`}>
            Cancel
          </Button>
        ) : null}
      </Flex>
      {item.status === 'error' || (item.status === 'canceled' && item.sent === 0) ? null : (
        <Progress percent={percent(item)} size="small" status={status} aria-label={`${item.name} progress`} />
      )}
      <Typography.Text type={item.status === 'error' ? 'danger' : 'secondary'}>
        {item.status === 'error'
          ? item.message
          : (item.message ?? STATE_TEXT[item.status] ?? `${formatBytes(item.sent)} of ${formatBytes(item.total)}`)}
      </Typography.Text>
    </Flex>
  );
}

/** What a screen reader is told when an upload ends ("x uploaded", "x failed: reason"). */
function endingOf(item: UploadItem): string | null {
  if (item.status === 'done') return `${item.name} uploaded`;
  if (item.status === 'error') return `${item.name} failed: ${item.message ?? 'the upload failed'}`;
  if (item.status === 'canceled')
    return `${item.name} not uploaded${item.message ? `: ${item.message.replace(/^Not uploaded: /, '')}` : ''}`;
  return null;
}

/**
 * Announces only the uploads that end (not every progress tick): a visually hidden live region that
 * names the ones that ended since the last change. Rows that had ended before it was shown are not
 * announced again.
 */
function UploadAnnouncer({ items }: { items: UploadItem[] }) {
  const [text, setText] = useState('');
  const seen = useRef<Map<string, UploadItem['status']> | null>(null);
  useEffect(() => {
    const before = seen.current;
    seen.current = new Map(items.map((i) => [i.key, i.status]));
    if (!before) return;
    const ended = items
      .filter((i) => before.get(i.key) !== i.status)
      .map(endingOf)
      .filter((t): t is string => t !== null);
    if (ended.length) setText(ended.join('. '));
  }, [items]);
  return (
    <div role="status" aria-live="polite" aria-atomic="true" data-testid="upload-announcements" style={VISUALLY_HIDDEN}>
      {text}
    </div>
  );
}

/** One row per file sent from this screen: its progress, a Cancel while it runs, and how it ended. */
export function UploadPanel({
  items,
  onCancel,
  onClear,
}: {
  items: UploadItem[];
  onCancel: (key: string) => void;
  onClear: () => void;
}) {
  const announcer = <UploadAnnouncer items={items} />;
  if (!items.length) return announcer;
  const finished = items.some((i) => i.status === 'done' || i.status === 'canceled' || i.status === 'error');
  return (
    <>
      {announcer}
      <Card
        size="small"
        title="Uploads"
        extra={
          finished ? (
            <Button size="small" type="link" onClick={onClear}>
              Clear finished
            </Button>
          ) : null
        }
      >
        <Flex vertical gap="middle" role="list" aria-label="Uploads">
          {items.map((item) => (
            <UploadRow key={item.key} item={item} onCancel={onCancel} />
          ))}
        </Flex>
      </Card>
    </>
  );
}
