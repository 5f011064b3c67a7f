import { Form, Input } from '@portal/shared/ui/extra';
import { controlCreateSchema } from '@portal/shared/core/projects';
import { schemaRule } from '@portal/shared/core/errors';
import type { ControlFormValues } from '../model/control-body';
import { FormModal, type FormModalUse } from './form-modal';

const shape = controlCreateSchema.shape;

/** Creates or edits a control: its ID (`name`, unique in the project), title and description. */
export function ControlFormModal(props: FormModalUse<ControlFormValues>) {
  return (
    <FormModal<ControlFormValues> {...props}>
      <Form.Item
        name="name"
        label="Control ID"
        extra="Unique within the project, e.g. CC6.1."
        rules={[schemaRule(shape.name)]}
      >
        <Input autoFocus />
      </Form.Item>
      <Form.Item name="title" label="Title" rules={[schemaRule(shape.title)]}>
        <Input />
      </Form.Item>
      <Form.Item name="description" label="Description" rules={[schemaRule(shape.description)]}>
        <Input.TextArea rows={4} />
      </Form.Item>
    </FormModal>
  );
}
