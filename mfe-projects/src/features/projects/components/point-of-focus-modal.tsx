import { Form, Input } from '@portal/shared/ui/extra';
import { pointOfFocusSchema, type PointOfFocusInput } from '@portal/shared/core/projects';
import { schemaRule } from '@portal/shared/core/errors';
import { FormModal, type FormModalUse } from './form-modal';

export type PointOfFocusValues = { name: string; description?: string };

/** Adds or edits a point of focus of a control. */
export function PointOfFocusModal({
  onSubmit,
  ...props
}: Omit<FormModalUse<PointOfFocusValues>, 'onSubmit'> & { onSubmit: (body: PointOfFocusInput) => Promise<unknown> }) {
  return (
    <FormModal<PointOfFocusValues>
      {...props}
      onSubmit={(v) => onSubmit({ name: v.name.trim(), description: v.description?.trim() || null })}
    >
      <Form.Item name="name" label="Name" rules={[schemaRule(pointOfFocusSchema.shape.name)]}>
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="description" label="Description" rules={[schemaRule(pointOfFocusSchema.shape.description)]}>
        <Input.TextArea rows={4} />
      </Form.Item>
    </FormModal>
  );
}
