import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@portal/shared/ui/button';
import { DeleteOutlined, Form, Popconfirm, Space, Typography, Upload, UploadOutlined } from '@portal/shared/ui/extra';
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

/** What an image field says: its buttons and the confirmation before the stored image is deleted. */
export interface ImageInputTexts {
  choose: string;
  chooseAnother: string;
  keepCurrent: string;
  deleteTitle: string;
  deleteDescription: string;
  deleteButton: string;
}

export interface ImageInputProps {
  /** Given by Form.Item: the file input gets it, so the item's label names it. */
  id?: string;
  value?: File;
  onChange?: (file: File | undefined) => void;
  currentUrl: string | null;
  disabled: boolean;
  onDelete: () => void;
  deleting: boolean;
}

/**
 * An image field (avatar, logo): a file chosen here is sent with the form on Save, after the form's rule
 * (imageRule) checked its bytes and size; the stored image is deleted at once, after a confirmation.
 * `preview` draws the chosen file's preview address, or null when there is none to show.
 */
export function ImageInput({
  id,
  value,
  onChange,
  currentUrl,
  disabled,
  onDelete,
  deleting,
  texts,
  preview: renderPreview,
}: ImageInputProps & { texts: ImageInputTexts; preview: (previewUrl: string | null) => ReactNode }) {
  const { status } = Form.Item.useStatus();
  const preview = useObjectUrl(value && status !== 'error' && status !== 'validating' ? value : null);
  return (
    <Space align="center" size="middle" wrap>
      {renderPreview(preview)}
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
          {currentUrl || value ? texts.chooseAnother : texts.choose}
        </Button>
      </Upload>
      {value ? (
        <Button onClick={() => onChange?.(undefined)} disabled={disabled}>
          {texts.keepCurrent}
        </Button>
      ) : null}
      {currentUrl && !value ? (
        <Popconfirm
          title={texts.deleteTitle}
          description={texts.deleteDescription}
          okText="Delete"
          okButtonProps={{ danger: true }}
          onConfirm={onDelete}
          disabled={disabled}
        >
          <Button danger icon={<DeleteOutlined />} disabled={disabled} loading={deleting}>
            {texts.deleteButton}
          </Button>
        </Popconfirm>
      ) : null}
      <Typography.Text type="secondary">PNG, JPEG, GIF or WebP, at most 2 MB.</Typography.Text>
    </Space>
  );
}
