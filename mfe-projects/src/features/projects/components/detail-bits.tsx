/** Pieces the task and control pages share: the Edit and Delete buttons, and the description field. */
import { Button } from '@portal/shared/ui/button';
import { DeleteOutlined, EditOutlined, Typography } from '@portal/shared/ui/extra';

export function EditDeleteButtons({ onEdit, onDelete }: { onEdit: () => void; onDelete: () => void }) {
  return (
    <>
      <Button icon={<EditOutlined />} onClick={onEdit}>
        Edit
      </Button>
      <Button danger icon={<DeleteOutlined />} onClick={onDelete}>
        Delete
      </Button>
    </>
  );
}

/** The Descriptions item of a free-text description, line breaks kept, spanning the rest of its row. */
export function descriptionItem(description: string | null) {
  return {
    key: 'description',
    label: 'Description',
    span: 'filled' as const,
    children: description ? (
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{description}</Typography.Paragraph>
    ) : (
      <Typography.Text type="secondary">No description.</Typography.Text>
    ),
  };
}
