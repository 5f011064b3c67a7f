import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  Card,
  DeleteOutlined,
  Flex,
  Form,
  Input,
  PlusOutlined,
  Popconfirm,
  Table,
  Tag,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { formatDate } from '@portal/shared/core/dates';
import { companyDomainInputSchema, type CompanyDomain } from '@portal/shared/core/schemas';
import { errorMessage, fieldErrors } from '@portal/shared/web/api';
import { publishToast } from '@portal/shared/web/events';
import { schemaRule } from '../../../app/forms';
import {
  useSettingsCompanyDomainAddMutation,
  useSettingsCompanyDomainConfirmMutation,
  useSettingsCompanyDomainDeleteMutation,
  useSettingsCompanyDomainVerifyMutation,
} from '../api/company-api';

/** Why a request failed, for the section's error: `null` clears it. */
type OnFailure = (message: string | null) => void;

interface CompanyDomainsProps {
  companyId: string;
  domains: CompanyDomain[];
  /** A staff admin: may confirm a domain without its DNS record. */
  canConfirm: boolean;
  /** An identity provider is configured: without a verified domain it signs in nobody. */
  identityProviderConfigured: boolean;
  /** The settings (domains with them) are being fetched again, after a change. */
  fetching: boolean;
}

/**
 * The email domains the company's identity provider signs in (POST/DELETE /companies/:id/domains): a
 * domain is claimed pending, then verified by its DNS TXT record or, by a staff admin, without it.
 */
export function CompanyDomains({
  companyId,
  domains,
  canConfirm,
  identityProviderConfigured,
  fetching,
}: CompanyDomainsProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const noneVerified = !domains.some((d) => d.status === 'verified');

  const columns: NonNullable<TableProps<CompanyDomain>['columns']> = [
    { title: 'Domain', key: 'domain', render: (_v, d) => <Typography.Text strong>{d.domain}</Typography.Text> },
    { title: 'Status', key: 'status', render: (_v, d) => <DomainStatus domain={d} /> },
    { title: 'DNS TXT record to add', key: 'record', render: (_v, d) => <VerificationRecord domain={d} /> },
    {
      title: 'Actions',
      key: 'actions',
      render: (_v, d) => (
        <DomainActions companyId={companyId} domain={d} canConfirm={canConfirm} onFailure={setFailure} />
      ),
    },
  ];

  return (
    <Card title="Email domains">
      <Typography.Paragraph type="secondary">
        Your identity provider signs in only users whose email address is on a verified domain. Verify a domain with a
        DNS TXT record; a domain can be verified by one company only.
      </Typography.Paragraph>
      <Flex vertical gap="middle">
        {identityProviderConfigured && noneVerified ? (
          <Alert
            type="warning"
            showIcon
            title="Nobody signs in through this identity provider until a domain is verified."
          />
        ) : null}
        {failure ? <Alert type="error" showIcon title={failure} closable onClose={() => setFailure(null)} /> : null}
        <Table<CompanyDomain>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={domains}
          loading={fetching}
          pagination={false}
          locale={{
            emptyText: 'No email domains yet: add the domain of your users’ email addresses, such as example.com.',
          }}
          scroll={{ x: 'max-content' }}
        />
        <AddDomainForm companyId={companyId} onFailure={setFailure} />
      </Flex>
    </Card>
  );
}

function DomainStatus({ domain }: { domain: CompanyDomain }) {
  if (domain.status !== 'verified') return <Tag color="warning">Pending verification</Tag>;
  return (
    <Flex vertical gap={2} align="flex-start">
      <Tag color="success">
        {domain.verifiedBy === 'staff'
          ? 'Verified by staff'
          : domain.verifiedBy === 'dns'
            ? 'Verified by DNS'
            : 'Verified'}
      </Tag>
      {domain.verifiedAt ? (
        <Typography.Text type="secondary">on {formatDate(domain.verifiedAt)}</Typography.Text>
      ) : null}
    </Flex>
  );
}

/** What a pending domain's admin adds at their DNS provider; each part copyable (the copy buttons name what they copy). */
function VerificationRecord({ domain }: { domain: CompanyDomain }) {
  if (domain.status === 'verified') return <Typography.Text type="secondary">None needed</Typography.Text>;
  const { name, type, value } = domain.verification;
  return (
    <dl
      style={{
        margin: 0,
        display: 'grid',
        gridTemplateColumns: 'auto auto',
        columnGap: 12,
        rowGap: 4,
        justifyContent: 'start',
      }}
    >
      <dt>Type</dt>
      <dd style={{ margin: 0 }}>
        <Typography.Text code>{type}</Typography.Text>
      </dd>
      <dt>Name</dt>
      <dd style={{ margin: 0 }}>
        <Typography.Text code copyable={{ tooltips: [`Copy the record name for ${domain.domain}`, 'Copied'] }}>
          {name}
        </Typography.Text>
      </dd>
      <dt>Value</dt>
      <dd style={{ margin: 0, whiteSpace: 'nowrap' }}>
        <Typography.Text code copyable={{ tooltips: [`Copy the record value for ${domain.domain}`, 'Copied'] }}>
          {value}
        </Typography.Text>
      </dd>
    </dl>
  );
}

/**
 * A Popconfirm's description that takes the keyboard into the confirmation: antd leaves the focus on
 * the button that opened it, while the popup sits at the end of the page. When it opens, the focus
 * moves to its first button (Cancel: a second Enter does not confirm); when it closes, back to the
 * opener. Its Popconfirm is `destroyOnHidden`, so this runs at every opening.
 */
function ConfirmDescription({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // After the popup's portal is in the page (this effect runs before it is).
    const timer = setTimeout(() =>
      ref.current?.closest('[role="tooltip"]')?.querySelector<HTMLButtonElement>('button')?.focus(),
    );
    return () => {
      clearTimeout(timer);
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <div ref={ref} style={{ maxWidth: 320 }}>
      {children}
    </div>
  );
}

/** A row's actions, each with its own request state: a button shows loading while its request runs. */
function DomainActions({
  companyId,
  domain,
  canConfirm,
  onFailure,
}: {
  companyId: string;
  domain: CompanyDomain;
  canConfirm: boolean;
  onFailure: OnFailure;
}) {
  const [verify, { isLoading: verifying }] = useSettingsCompanyDomainVerifyMutation();
  const [confirm, { isLoading: confirming }] = useSettingsCompanyDomainConfirmMutation();
  const [remove, { isLoading: removing }] = useSettingsCompanyDomainDeleteMutation();
  const args = { companyId, domainId: domain.id };
  const pending = domain.status === 'pending';

  /** Runs a request; its success is toasted, its failure shown on the section with the api's reason. */
  const run = async (request: () => Promise<unknown>, success: string, fallback: string) => {
    onFailure(null);
    try {
      await request();
      publishToast({ severity: 'success', summary: success });
    } catch (error) {
      onFailure(errorMessage(error) ?? fallback);
    }
  };

  return (
    <Flex gap="small" wrap={false}>
      {pending ? (
        <Button
          size="small"
          loading={verifying}
          aria-label={`Verify ${domain.domain}`}
          onClick={() =>
            void run(
              () => verify(args).unwrap(),
              `${domain.domain} verified`,
              `${domain.domain} could not be verified.`,
            )
          }
        >
          Verify
        </Button>
      ) : null}
      {pending && canConfirm ? (
        <Popconfirm
          title={`Confirm ${domain.domain} without DNS?`}
          description={
            <ConfirmDescription>
              This skips the DNS proof: the identity provider then signs in every user with an email address on{' '}
              {domain.domain}. Confirm only a domain you know the company holds.
            </ConfirmDescription>
          }
          okText="Confirm domain"
          destroyOnHidden
          onConfirm={() =>
            void run(
              () => confirm(args).unwrap(),
              `${domain.domain} confirmed without DNS`,
              `${domain.domain} could not be confirmed.`,
            )
          }
        >
          <Button size="small" loading={confirming} aria-label={`Confirm without DNS: ${domain.domain}`}>
            Confirm without DNS
          </Button>
        </Popconfirm>
      ) : null}
      <Popconfirm
        title={`Remove ${domain.domain}?`}
        description={
          <ConfirmDescription>
            {pending
              ? 'It is not verified, so nobody signs in with it yet.'
              : `Users with an email address on ${domain.domain} then sign in with a password again; those without one must reset it.`}
          </ConfirmDescription>
        }
        okText="Remove"
        okButtonProps={{ danger: true }}
        destroyOnHidden
        onConfirm={() =>
          void run(() => remove(args).unwrap(), `${domain.domain} removed`, `${domain.domain} could not be removed.`)
        }
      >
        <Button size="small" danger icon={<DeleteOutlined />} loading={removing} aria-label={`Remove ${domain.domain}`}>
          Remove
        </Button>
      </Popconfirm>
    </Flex>
  );
}

/** Adds a domain, checked with the api's schema first; the api's reason for refusing it (400, 409) goes under the field, the text kept. */
function AddDomainForm({ companyId, onFailure }: { companyId: string; onFailure: OnFailure }) {
  const [form] = Form.useForm<{ domain: string }>();
  const [add, { isLoading }] = useSettingsCompanyDomainAddMutation();

  const onFinish = async (values: { domain: string }) => {
    const parsed = companyDomainInputSchema.safeParse(values);
    if (!parsed.success) return; // the field's rule already shows why
    onFailure(null);
    try {
      const added = await add({ companyId, domain: parsed.data }).unwrap();
      form.resetFields();
      publishToast({ severity: 'success', summary: `${added.domain} added: add its TXT record, then verify it` });
    } catch (error) {
      // Only the field the form has: any other detail (or none) is shown as the section's error.
      const errors = fieldErrors(error).filter((f) => f.name === 'domain');
      if (errors.length) form.setFields(errors.map((f) => ({ name: 'domain' as const, errors: f.errors })));
      else onFailure(errorMessage(error) ?? 'The domain could not be added.');
    }
  };

  return (
    <Form form={form} name="company-domain" layout="inline" onFinish={onFinish}>
      <Form.Item
        name="domain"
        label="Email domain"
        required
        rules={[schemaRule(companyDomainInputSchema.shape.domain, { nullAsMissing: true })]}
        style={{ flex: '1 1 240px', maxWidth: 420 }}
      >
        <Input placeholder="example.com" autoComplete="off" spellCheck={false} />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={isLoading}>
          Add domain
        </Button>
      </Form.Item>
    </Form>
  );
}
