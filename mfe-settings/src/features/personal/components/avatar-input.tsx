import { useEffect, useState } from 'react';
import { Button } from '@portal/shared/ui';
import { DeleteOutlined, ExtraAvatar, Form, Popconfirm, Space, Typography, Upload, UploadOutlined } from '@portal/shared/ui/extra';
import { IMAGE_TYPES } from '@portal/shared/core/settings';

/** A preview address for a chosen file, released when it changes or the field unmounts. */
function useObjectUrl(file: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

interface AvatarInputProps {
  /** Given by Form.Item: the file input gets it, so the item's label names it. */
  id?: string;
  value?: File;
  onChange?: (file: File | undefined) => void;
  currentUrl: string | null;
  initials: string;
  disabled: boolean;
  onDelete: () => void;
  deleting: boolean;
}

/**
 * The avatar of the profile form: a file chosen here is sent with the profile on Save, after the form's
 * rule checked its bytes and size; the stored avatar is deleted at once, after a confirmation.
 */
export function AvatarInput({ id, value, onChange, currentUrl, initials, disabled, onDelete, deleting }: AvatarInputProps) {
  const { status } = Form.Item.useStatus();
  const preview = useObjectUrl(value && status !== 'error' && status !== 'validating' ? value : null);
  return (
    <Space align="center" size="middle" wrap>
      <ExtraAvatar size={64} src={preview ?? currentUrl ?? undefined} alt={preview ? 'New avatar preview' : 'Your avatar'}>
        {initials}
      </ExtraAvatar>
      <Upload
        id={id}
        accept={IMAGE_TYPES.join(',')}
        showUploadList={false}
        disabled={disabled}
        beforeUpload={(file) => {
          onChange?.(file);
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined />} disabled={disabled}>
          {currentUrl || value ? 'Choose another image' : 'Choose an image'}
        </Button>
      </Upload>
      {value ? (
        <Button onClick={() => onChange?.(undefined)} disabled={disabled}>
          Keep the current avatar
        </Button>
      ) : null}
      {currentUrl && !value ? (
        <Popconfirm
          title="Delete your avatar?"
          description="Your initials are shown instead."
          okText="Delete"
          okButtonProps={{ danger: true }}
          onConfirm={onDelete}
          disabled={disabled}
        >
          <Button danger icon={<DeleteOutlined />} disabled={disabled} loading={deleting}>
            Delete avatar
          </Button>
        </Popconfirm>
      ) : null}
      <Typography.Text type="secondary">PNG, JPEG, GIF or WebP, at most 2 MB.</Typography.Text>
    </Space>
  );
}
