import { Button } from '@portal/shared/ui/button';
import { Card, Form, Input } from '@portal/shared/ui/extra';
import type { Company } from '@portal/shared/core/schemas';
import { companyCreateSchema } from '@portal/shared/core/settings';
import { useCompaniesGetQuery } from '@portal/shared/web/api';
import { publishToast } from '@portal/shared/web/events';
import { imageRule, showFieldErrors, schemaRule } from '../../../app/forms';
import { useSettingsCompanyLogoDeleteMutation, useSettingsCompanyUpdateMutation } from '../api/company-api';
import { LogoInput } from './logo-input';
import { ReadOnlyNote, SectionError, SectionLoading } from './section-states';

interface InformationValues {
  name: string;
  logo?: File;
}

/** The company's name and logo (PATCH /companies/:id, multipart); editable with company.editInformation. */
export function CompanyInformation({ companyId, canEdit }: { companyId: string; canEdit: boolean }) {
  const company = useCompaniesGetQuery(companyId);
  if (company.isLoading) return <SectionLoading label="Loading company information" />;
  if (!company.data)
    return (
      <SectionError what="The company's information" error={company.error} onRetry={() => void company.refetch()} />
    );
  return <InformationForm key={company.data.id} company={company.data} canEdit={canEdit} />;
}

function InformationForm({ company, canEdit }: { company: Company; canEdit: boolean }) {
  const [form] = Form.useForm<InformationValues>();
  const [update, { isLoading: saving }] = useSettingsCompanyUpdateMutation();
  const [deleteLogo, { isLoading: deleting }] = useSettingsCompanyLogoDeleteMutation();

  const onFinish = async ({ name, logo }: InformationValues) => {
    const body = new FormData();
    body.append('name', name.trim());
    if (logo) body.append('logo', logo, logo.name);
    try {
      await update({ companyId: company.id, body }).unwrap();
      form.setFieldValue('logo', undefined);
      publishToast({ severity: 'success', summary: 'Company information saved' });
    } catch (error) {
      showFieldErrors(form, error);
    }
  };

  const onDeleteLogo = async () => {
    try {
      await deleteLogo(company.id).unwrap();
      publishToast({ severity: 'success', summary: 'Logo deleted' });
    } catch {
      // toasted by the shell
    }
  };

  return (
    <Card title="Company information">
      {canEdit ? null : (
        <ReadOnlyNote>
          Changing the company's information needs the permission to edit company information.
        </ReadOnlyNote>
      )}
      <Form
        form={form}
        name="company-information"
        layout="vertical"
        disabled={!canEdit}
        initialValues={{ name: company.name }}
        onFinish={onFinish}
        style={{ maxWidth: 560 }}
      >
        <Form.Item
          name="name"
          label="Company name"
          required
          rules={[schemaRule(companyCreateSchema.shape.name, { nullAsMissing: true })]}
        >
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item name="logo" label="Logo" rules={[imageRule()]}>
          <LogoInput
            currentUrl={company.logo}
            companyName={company.name}
            disabled={!canEdit}
            onDelete={() => void onDeleteLogo()}
            deleting={deleting}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} disabled={!canEdit}>
          Save company information
        </Button>
      </Form>
    </Card>
  );
}
