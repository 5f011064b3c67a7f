import { useState } from 'react';
import { Alert, Form, Input, Modal, Radio, Switch } from '@portal/shared/ui/extra';
import { featureFlagInputSchema, featureFlagKeySchema, featureFlagValueSchema } from '@portal/shared/core/schemas';
import type { FeatureFlagDefinition, FlagValue } from '@portal/shared/core/feature-flags';
import { fieldMessage } from '@portal/shared/core/errors';
import { schemaRule } from '../../../app/forms';
import { errorMessage, fieldErrors } from '@portal/shared/web/api';
import { useSettingsFlagsPutMutation } from '../api/system-api';

type Kind = 'boolean' | 'json';

interface FlagForm {
  key: string;
  kind: Kind;
  defaultBoolean: boolean;
  defaultJson: string;
  enabled: boolean;
  description: string;
}

/** The api's rule ("must be …", written to follow a field's name) as a sentence under the field. */
const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

/** The labels of the flag's parts that have no field of their own on this form. */
const PART_LABELS: Record<string, string> = { key: 'Key', enabled: 'Enabled', rules: 'Rules' };

/** A refusal of a part of the flag the form has no field for, in the form's words ("Rules: Must be …"). */
const partProblem = (name: string, message: string) =>
  `${PART_LABELS[name.split('.')[0]] ?? 'The flag'}: ${sentence(fieldMessage(name, message))}`;

/** The value in a JSON text field: valid JSON, not null, at most 4 KB (featureFlagValueSchema). */
const jsonValueRule = {
  validator: async (_rule: unknown, text: unknown) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(text ?? ''));
    } catch {
      throw new Error('Must be valid JSON, e.g. "text", 42, ["a"] or {"a": 1}');
    }
    const result = featureFlagValueSchema.safeParse(parsed);
    if (!result.success) throw new Error(sentence(result.error.issues[0]?.message ?? 'Must be a valid value'));
  },
};

/** Creates a flag or edits one's default value, enabled and description. Its rules are sent back unchanged. */
export function FlagEditor({
  flag,
  existingKeys,
  onClose,
}: {
  flag: FeatureFlagDefinition | null;
  existingKeys: string[];
  onClose: () => void;
}) {
  const [form] = Form.useForm<FlagForm>();
  const [put, { isLoading }] = useSettingsFlagsPutMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const watched = Form.useWatch('kind', form);
  const kind: Kind = flag ? (typeof flag.defaultValue === 'boolean' ? 'boolean' : 'json') : (watched ?? 'boolean');
  const valueField = kind === 'boolean' ? 'defaultBoolean' : 'defaultJson';

  const submit = async (values: FlagForm) => {
    setFailure(null);
    const key = flag?.key ?? values.key.trim();
    const defaultValue = (kind === 'boolean' ? !!values.defaultBoolean : JSON.parse(values.defaultJson)) as FlagValue;
    const parsed = featureFlagInputSchema.safeParse({
      description: values.description ?? '',
      defaultValue,
      rules: flag?.rules ?? [],
      enabled: !!values.enabled,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = issue ? sentence(fieldMessage(issue.path.join('.'), issue.message)) : '';
      if (issue?.path[0] === 'description') form.setFields([{ name: 'description', errors: [message] }]);
      else if (issue?.path[0] === 'defaultValue') form.setFields([{ name: valueField, errors: [message] }]);
      else setFailure(issue ? partProblem(issue.path.join('.'), issue.message) : 'The flag is not valid.');
      return;
    }
    try {
      await put({ key, body: parsed.data }).unwrap();
      onClose();
    } catch (error) {
      const fields = fieldErrors(error);
      const onForm = fields.filter((f) => f.name === 'description' || f.name === 'defaultValue');
      if (onForm.length)
        form.setFields(
          onForm.map((f) => ({
            name: f.name === 'defaultValue' ? valueField : 'description',
            errors: f.errors.map((e) => sentence(fieldMessage(f.name, e))),
          })),
        );
      const rest = fields.filter((f) => !onForm.includes(f));
      if (rest.length || !fields.length)
        setFailure(
          rest.length
            ? rest.map((f) => partProblem(f.name, f.errors.join(' '))).join(' ')
            : (errorMessage(error) ?? 'The flag could not be saved.'),
        );
    }
  };

  return (
    <Modal
      open
      title={flag ? `Edit ${flag.key}` : 'New flag'}
      okText="Save flag"
      onOk={() => form.submit()}
      confirmLoading={isLoading}
      onCancel={onClose}
    >
      <Form<FlagForm>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          key: flag?.key ?? '',
          kind,
          defaultBoolean: typeof flag?.defaultValue === 'boolean' ? flag.defaultValue : false,
          defaultJson: flag && typeof flag.defaultValue !== 'boolean' ? JSON.stringify(flag.defaultValue, null, 2) : '',
          enabled: flag?.enabled ?? true,
          description: flag?.description ?? '',
        }}
      >
        {flag ? null : (
          <>
            <Form.Item
              name="key"
              label="Key"
              extra="Lowercase letters, digits and -, starting with a letter; it cannot change later."
              rules={[
                schemaRule(featureFlagKeySchema),
                {
                  validator: async (_r: unknown, v: unknown) => {
                    if (existingKeys.includes(String(v ?? '').trim()))
                      throw new Error('a flag with this key already exists');
                  },
                },
              ]}
            >
              <Input autoFocus autoComplete="off" />
            </Form.Item>
            <Form.Item name="kind" label="Type">
              <Radio.Group
                name="flag-kind"
                options={[
                  { value: 'boolean', label: 'Boolean' },
                  { value: 'json', label: 'Other (JSON)' },
                ]}
              />
            </Form.Item>
          </>
        )}
        {kind === 'boolean' ? (
          <Form.Item name="defaultBoolean" label="Default value" valuePropName="checked">
            <Switch checkedChildren="true" unCheckedChildren="false" />
          </Form.Item>
        ) : (
          <Form.Item name="defaultJson" label="Default value (JSON)" rules={[jsonValueRule]}>
            <Input.TextArea rows={4} style={{ fontFamily: 'monospace' }} />
          </Form.Item>
        )}
        <Form.Item
          name="enabled"
          label="Enabled"
          valuePropName="checked"
          extra="A disabled flag serves its default to everyone."
        >
          <Switch />
        </Form.Item>
        <Form.Item
          name="description"
          label="Description"
          rules={[schemaRule(featureFlagInputSchema.shape.description)]}
        >
          <Input.TextArea rows={2} />
        </Form.Item>
        {flag?.rules.length ? (
          <Alert
            type="info"
            showIcon
            title={`${flag.rules.length} targeting rule${flag.rules.length > 1 ? 's' : ''} kept as they are.`}
          />
        ) : null}
        {failure ? <Alert type="error" showIcon title={failure} style={{ marginTop: 12 }} /> : null}
      </Form>
    </Modal>
  );
}
