import { Button } from '@portal/shared/ui/button';
import { Card, Form, InputNumber } from '@portal/shared/ui/extra';
import { passwordPolicySchema, type PasswordPolicy } from '@portal/shared/core/schemas';
import { publishToast } from '@portal/shared/web/events';
import { showFieldErrors, schemaRule } from '../../../app/forms';
import { useSettingsPasswordPolicyGetQuery } from '../../../app/shared-queries';
import { useSettingsCompanyPasswordPolicyUpdateMutation } from '../api/company-api';
import { ReadOnlyNote, SectionError, SectionLoading } from './section-states';

const shape = passwordPolicySchema.shape;

/**
 * The company's password policy (GET/POST /companies/:id/password-policy). The numbers are checked with
 * the api's schema, not rounded or clamped by the inputs: -1 or 3.5 is an error to fix, never something
 * silently changed and sent (sent as integers).
 */
export function CompanyPasswordPolicy({ companyId, canEdit }: { companyId: string; canEdit: boolean }) {
  const policy = useSettingsPasswordPolicyGetQuery(companyId);
  if (policy.isLoading) return <SectionLoading label="Loading the password policy" />;
  if (!policy.data)
    return <SectionError what="The password policy" error={policy.error} onRetry={() => void policy.refetch()} />;
  return <PolicyForm key={companyId} companyId={companyId} policy={policy.data} canEdit={canEdit} />;
}

function PolicyForm({ companyId, policy, canEdit }: { companyId: string; policy: PasswordPolicy; canEdit: boolean }) {
  const [form] = Form.useForm<PasswordPolicy>();
  const [save, { isLoading }] = useSettingsCompanyPasswordPolicyUpdateMutation();

  const onFinish = async (values: PasswordPolicy) => {
    const parsed = passwordPolicySchema.safeParse(values);
    if (!parsed.success) return; // the rules above already show why
    try {
      await save({ companyId, policy: parsed.data }).unwrap();
      publishToast({ severity: 'success', summary: 'Password policy saved' });
    } catch (error) {
      showFieldErrors(form, error);
    }
  };

  return (
    <Card title="Password policy">
      {canEdit ? null : (
        <ReadOnlyNote>Changing the password policy needs the permission to edit company information.</ReadOnlyNote>
      )}
      <Form
        form={form}
        name="password-policy"
        layout="vertical"
        disabled={!canEdit}
        initialValues={policy}
        onFinish={onFinish}
        style={{ maxWidth: 560 }}
      >
        <Form.Item
          name="minimumLength"
          label="Minimum length"
          required
          extra="Characters, from 8 to 128. Users in several companies follow the strictest of their policies."
          rules={[schemaRule(shape.minimumLength, { nullAsMissing: true })]}
        >
          <InputNumber step={1} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item
          name="rotationInDays"
          label="Rotation (days)"
          required
          extra="Days before a password must be changed, from 0 to 3650; 0 means passwords never expire."
          rules={[schemaRule(shape.rotationInDays, { nullAsMissing: true })]}
        >
          <InputNumber step={1} style={{ width: 160 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={isLoading} disabled={!canEdit}>
          Save password policy
        </Button>
      </Form>
    </Card>
  );
}
