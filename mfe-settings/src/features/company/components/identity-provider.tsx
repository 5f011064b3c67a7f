import { Button } from '@portal/shared/ui/button';
import { Card, Descriptions, Flex, Form, Input, Popconfirm, Tag, Typography } from '@portal/shared/ui/extra';
import { formatDate } from '@portal/shared/core/dates';
import {
  identityProviderInputSchema,
  type IdentityProvider,
  type IdentityProviderInput,
  type IdentityProviderSettings,
} from '@portal/shared/core/schemas';
import { publishToast } from '@portal/shared/web/events';
import { skipToken } from '@portal/shared/web/store';
import { showFieldErrors, schemaRule } from '../../../app/forms';
import {
  useSettingsCompanyIdentityProviderDeleteMutation,
  useSettingsCompanyIdentityProviderQuery,
  useSettingsCompanyIdentityProviderUpdateMutation,
} from '../api/company-api';
import { CompanyDomains } from './company-domains';
import { ReadOnlyNote, SectionError, SectionLoading } from './section-states';

const shape = identityProviderInputSchema.shape;
const DAY = 86_400_000;

interface IdentityProviderValues {
  entityId: string;
  ssoUrl: string;
  certificate: string;
  sloUrl: string | null;
}

/** An empty optional URL is none (null), not an invalid URL. */
const noneIfBlank = (value: string | null | undefined) => (value && value.trim() ? value.trim() : null);

/**
 * The company's SAML identity provider (GET/PUT/DELETE /companies/:id/identity-provider) and the email
 * domains it signs in. Its settings are readable only with company.editInformation, so without it
 * nothing is fetched.
 */
export function CompanyIdentityProvider({ companyId, canEdit }: { companyId: string; canEdit: boolean }) {
  const settings = useSettingsCompanyIdentityProviderQuery(canEdit ? companyId : skipToken);
  if (!canEdit) {
    return (
      <Card title="Single sign-on">
        <ReadOnlyNote>
          Viewing and changing single sign-on needs the permission to edit company information.
        </ReadOnlyNote>
      </Card>
    );
  }
  if (settings.isLoading) return <SectionLoading label="Loading single sign-on" />;
  if (!settings.data)
    return (
      <SectionError what="The single sign-on settings" error={settings.error} onRetry={() => void settings.refetch()} />
    );
  return <IdentityProviderSection companyId={companyId} settings={settings.data} fetching={settings.isFetching} />;
}

function CertificateExpiry({ expiresAt }: { expiresAt: string }) {
  const left = Date.parse(expiresAt) - Date.now();
  const date = formatDate(expiresAt);
  if (Number.isNaN(left)) return <>Unknown</>;
  if (left < 0) return <Tag color="error">Expired on {date}: sign-in fails until it is replaced</Tag>;
  if (left < 30 * DAY) return <Tag color="warning">{date}: replace it soon</Tag>;
  return <>{date}</>;
}

function IdentityProviderSection({
  companyId,
  settings,
  fetching,
}: {
  companyId: string;
  settings: IdentityProviderSettings;
  fetching: boolean;
}) {
  const { identityProvider, serviceProvider, domains, canConfirmDomains } = settings;
  return (
    <Flex vertical gap="large">
      <Card title="What to enter at your identity provider">
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            {
              key: 'entityId',
              label: 'Entity ID (audience)',
              children: <Typography.Text copyable>{serviceProvider.entityId}</Typography.Text>,
            },
            {
              key: 'acsUrl',
              label: 'Assertion consumer service URL (HTTP-POST)',
              children: <Typography.Text copyable>{serviceProvider.acsUrl}</Typography.Text>,
            },
            {
              key: 'metadataUrl',
              label: 'Metadata URL',
              children: <Typography.Text copyable>{serviceProvider.metadataUrl}</Typography.Text>,
            },
          ]}
        />
      </Card>
      <Card
        title="Identity provider"
        extra={
          identityProvider ? (
            <Tag color="success">Configured</Tag>
          ) : (
            <Tag>Not configured: users sign in with a password</Tag>
          )
        }
      >
        {identityProvider ? (
          <Descriptions
            column={1}
            size="small"
            style={{ marginBottom: 24 }}
            items={[
              {
                key: 'fingerprint',
                label: 'Certificate fingerprint (SHA-256)',
                children: (
                  <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
                    {identityProvider.certificateFingerprint}
                  </Typography.Text>
                ),
              },
              {
                key: 'expires',
                label: 'Certificate expires',
                children: <CertificateExpiry expiresAt={identityProvider.certificateExpiresAt} />,
              },
            ]}
          />
        ) : null}
        <IdentityProviderForm
          key={identityProvider?.updatedAt ?? 'none'}
          companyId={companyId}
          identityProvider={identityProvider}
        />
      </Card>
      <CompanyDomains
        companyId={companyId}
        domains={domains}
        canConfirm={canConfirmDomains}
        identityProviderConfigured={identityProvider !== null}
        fetching={fetching}
      />
    </Flex>
  );
}

function IdentityProviderForm({
  companyId,
  identityProvider,
}: {
  companyId: string;
  identityProvider: IdentityProvider | null;
}) {
  const [form] = Form.useForm<IdentityProviderValues>();
  const [save, { isLoading: saving }] = useSettingsCompanyIdentityProviderUpdateMutation();
  const [remove, { isLoading: removing }] = useSettingsCompanyIdentityProviderDeleteMutation();

  const onFinish = async (values: IdentityProviderValues) => {
    const body: IdentityProviderInput = {
      entityId: values.entityId.trim(),
      ssoUrl: values.ssoUrl.trim(),
      certificate: values.certificate.trim(),
      sloUrl: noneIfBlank(values.sloUrl),
    };
    try {
      await save({ companyId, identityProvider: body }).unwrap();
      publishToast({ severity: 'success', summary: 'Single sign-on saved' });
    } catch (error) {
      // e.g. a certificate that looks right but does not parse: the api names `certificate`.
      showFieldErrors(form, error);
    }
  };

  const onRemove = async () => {
    try {
      await remove(companyId).unwrap();
      publishToast({ severity: 'success', summary: 'Single sign-on removed' });
    } catch {
      // toasted by the shell
    }
  };

  const initialValues: Partial<IdentityProviderValues> = identityProvider
    ? {
        entityId: identityProvider.entityId,
        ssoUrl: identityProvider.ssoUrl,
        certificate: identityProvider.certificate,
        sloUrl: identityProvider.sloUrl,
      }
    : {};

  return (
    <Form
      form={form}
      name="identity-provider"
      layout="vertical"
      initialValues={initialValues}
      onFinish={onFinish}
      style={{ maxWidth: 720 }}
    >
      <Form.Item
        name="entityId"
        label="Identity provider entity ID"
        required
        rules={[schemaRule(shape.entityId, { nullAsMissing: true })]}
      >
        <Input placeholder="https://idp.example.com/metadata" />
      </Form.Item>
      <Form.Item
        name="ssoUrl"
        label="Single sign-on URL"
        required
        extra="Where users are sent to sign in (HTTP-Redirect). https only."
        rules={[schemaRule(shape.ssoUrl, { nullAsMissing: true })]}
      >
        <Input type="url" placeholder="https://idp.example.com/sso" />
      </Form.Item>
      <Form.Item
        name="certificate"
        label="Signing certificate"
        required
        extra="The identity provider's X.509 signing certificate, as PEM or base64 DER."
        rules={[schemaRule(shape.certificate, { nullAsMissing: true })]}
      >
        <Input.TextArea
          rows={6}
          spellCheck={false}
          style={{ fontFamily: 'monospace' }}
          placeholder="-----BEGIN CERTIFICATE-----"
        />
      </Form.Item>
      <Form.Item
        name="sloUrl"
        label="Single logout URL (optional)"
        rules={[
          {
            validator: (rule: unknown, value: string | null) =>
              schemaRule(shape.sloUrl, { nullAsMissing: true }).validator(rule, noneIfBlank(value)),
          },
        ]}
      >
        <Input type="url" placeholder="https://idp.example.com/slo" />
      </Form.Item>
      <Flex gap="small" wrap>
        <Button type="primary" htmlType="submit" loading={saving}>
          Save single sign-on
        </Button>
        {identityProvider ? (
          <Popconfirm
            title="Remove single sign-on?"
            description="Users of the company then sign in with a password; those without one must reset it."
            okText="Remove"
            okButtonProps={{ danger: true }}
            onConfirm={() => void onRemove()}
          >
            <Button danger loading={removing}>
              Remove single sign-on
            </Button>
          </Popconfirm>
        ) : null}
      </Flex>
    </Form>
  );
}
