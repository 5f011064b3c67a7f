import { useEffect, useState } from 'react';
import { Button } from '@portal/shared/ui';
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

interface LogoInputProps {
  /** Given by Form.Item: the file input gets it, so the item's label names it. */
  id?: string;
  value?: File;
  onChange?: (file: File | undefined) => void;
  currentUrl: string | null;
  companyName: string;
  disabled: boolean;
  onDelete: () => void;
  deleting: boolean;
}

const box = { width: 160, height: 64, display: 'flex', alignItems: 'center', justifyContent: 'center', border: '1px dashed #d9d9d9', borderRadius: 6 };

/**
 * The company logo: a file chosen here is sent with the form on Save, after the form's rule checked its
 * bytes and size; the stored logo is deleted at once, after a confirmation.
 */
export function LogoInput({ id, value, onChange, currentUrl, companyName, disabled, onDelete, deleting }: LogoInputProps) {
  const { status } = Form.Item.useStatus();
  const preview = useObjectUrl(value && status !== 'error' && status !== 'validating' ? value : null);
  const shown = preview ?? currentUrl;
  return (
    <Space align="center" size="middle" wrap>
      <div style={box}>
        {shown ? (
          <img src={shown} alt={preview ? 'New logo preview' : `${companyName} logo`} style={{ maxWidth: 156, maxHeight: 60 }} />
        ) : (
          <Typography.Text type="secondary">No logo</Typography.Text>
        )}
      </div>
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
          {currentUrl || value ? 'Choose another logo' : 'Choose a logo'}
        </Button>
      </Upload>
      {value ? (
        <Button onClick={() => onChange?.(undefined)} disabled={disabled}>
          Keep the current logo
        </Button>
      ) : null}
      {currentUrl && !value ? (
        <Popconfirm
          title="Delete the company logo?"
          description="The company's name is shown instead."
          okText="Delete"
          okButtonProps={{ danger: true }}
          onConfirm={onDelete}
          disabled={disabled}
        >
          <Button danger icon={<DeleteOutlined />} disabled={disabled} loading={deleting}>
            Delete logo
          </Button>
        </Popconfirm>
      ) : null}
      <Typography.Text type="secondary">PNG, JPEG, GIF or WebP, at most 2 MB.</Typography.Text>
    </Space>
  );
}
