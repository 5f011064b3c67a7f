/** One transfer: who sent it to whom, its message, its files and their downloads, its expiry. */
import { LockOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Card, DeleteOutlined, DownloadOutlined, Flex, Popconfirm, Tooltip, Typography } from '@portal/shared/ui/extra';
import { FileTypeIcon } from '@portal/shared/ui/components';
import { formatBytes, type Transfer, type TransferFile } from '@portal/shared/core/files';
import { formatDateTime } from '@portal/shared/core/dates';
import { expiryLabel } from '../model/transfer-form';

export type TransferBox = 'received' | 'sent';

function Downloads({ file, box }: { file: TransferFile; box: TransferBox }) {
  if (file.downloads.length === 0) {
    return (
      <Typography.Text type="secondary">{box === 'sent' ? 'Not downloaded yet' : 'Not downloaded'}</Typography.Text>
    );
  }
  return (
    <Typography.Text type="secondary">
      {file.downloads
        .map((d) =>
          box === 'sent'
            ? `Downloaded by ${d.user?.name ?? 'a removed user'} at ${formatDateTime(d.at)}`
            : `Downloaded at ${formatDateTime(d.at)}`,
        )
        .join('; ')}
    </Typography.Text>
  );
}

export function TransferCard({
  transfer,
  box,
  downloading,
  withdrawing,
  onDownload,
  onWithdraw,
}: {
  transfer: Transfer;
  box: TransferBox;
  downloading: string | null;
  withdrawing: boolean;
  onDownload: (transfer: Transfer, file: TransferFile) => void;
  onWithdraw: (transfer: Transfer) => void;
}) {
  const who =
    box === 'received'
      ? `From ${transfer.sender?.name ?? 'a removed user'}`
      : `To ${transfer.recipients.map((r) => r.name).join(', ') || 'no one'}`;
  return (
    <Card
      size="small"
      data-testid={`transfer-${transfer.id}`}
      title={
        <Flex gap="small" align="center" wrap>
          {transfer.hasPassphrase ? (
            <Tooltip title="Protected by a passphrase">
              <LockOutlined aria-label="Protected by a passphrase" role="img" />
            </Tooltip>
          ) : null}
          <span>{who}</span>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {formatDateTime(transfer.createdAt)}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Flex gap="small" align="center">
          <Typography.Text type="secondary" title={formatDateTime(transfer.expiresAt)}>
            {expiryLabel(transfer.expiresAt)} ({formatDateTime(transfer.expiresAt)})
          </Typography.Text>
          {box === 'sent' ? (
            <Popconfirm
              title="Withdraw this transfer?"
              description="Its files are removed and its recipients can no longer download them."
              okText="Withdraw"
              okButtonProps={{ danger: true }}
              cancelText="Keep"
              onConfirm={() => onWithdraw(transfer)}
            >
              <Button size="small" danger icon={<DeleteOutlined />} loading={withdrawing}>
                Withdraw
              </Button>
            </Popconfirm>
          ) : null}
        </Flex>
      }
    >
      {transfer.message ? (
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{transfer.message}</Typography.Paragraph>
      ) : null}
      <ul
        aria-label="Files"
        style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 }}
      >
        {transfer.files.map((file) => (
          <li key={file.id}>
            <Flex gap="small" align="center" wrap>
              <FileTypeIcon name={file.name} />
              <span>{file.name}</span>
              <Typography.Text type="secondary">{formatBytes(file.size)}</Typography.Text>
              <Button
                size="small"
                icon={<DownloadOutlined />}
                loading={downloading === file.id}
                onClick={() => onDownload(transfer, file)}
                aria-label={`Download ${file.name}`}
              >
                Download
              </Button>
              <Downloads file={file} box={box} />
            </Flex>
          </li>
        ))}
      </ul>
    </Card>
  );
}
