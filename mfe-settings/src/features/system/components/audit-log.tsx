import { useEffect } from 'react';
import { useSelector } from '@portal/shared/web/store';
import { theme } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Flex, Form, Input, Table, Tag, Typography } from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import type { AuditEntry } from '@portal/shared/core/settings';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';
import { intParam, useUrlParams } from '../../../app/use-url-params';
import { useSettingsAuditLogQuery } from '../api/system-api';

const PAGE_SIZE = 50;
const FILTERS = ['search', 'action', 'targetType', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** A date (YYYY-MM-DD, the browser's zone) as the ISO instant where that day starts, or ends. */
function dayBound(day: string, end: boolean): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const d = end ? new Date(+m[1], +m[2] - 1, +m[3], 23, 59, 59, 999) : new Date(+m[1], +m[2] - 1, +m[3]);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function Json({ label, value }: { label: string; value: unknown }) {
  const { token } = theme.useToken();
  return (
    <div style={{ flex: 1, minWidth: 0 }}>
      <Typography.Text strong>{label}</Typography.Text>
      <pre
        aria-label={label}
        style={{
          margin: '4px 0 0',
          padding: 8,
          background: token.colorFillQuaternary,
          borderRadius: token.borderRadius,
          fontSize: 12,
          overflow: 'auto',
          maxHeight: 320,
        }}
      >
        {value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)}
      </pre>
    </div>
  );
}

/** Administrative changes, newest first, filtered through the address (?search, action, targetType, from, to, page). */
export function AuditLog() {
  const [params, update] = useUrlParams();
  const [form] = Form.useForm<Filters>();
  const companies = useSelector((s: { session: SessionState }) => sessionSelectors.selectCompanies(s));
  const filters = Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])) as Filters;
  const page = intParam(params, 'page', 1);
  const pageSize = Math.min(intParam(params, 'pageSize', PAGE_SIZE), 200);
  const query = {
    search: filters.search || undefined,
    action: filters.action || undefined,
    targetType: filters.targetType || undefined,
    from: dayBound(filters.from, false),
    to: dayBound(filters.to, true),
    page,
    pageSize,
  };
  const { data, isFetching, isError, refetch } = useSettingsAuditLogQuery(query, { refetchOnMountOrArgChange: true }); // changes made on other tabs are not tagged here

  // Back and forward change the address: the form follows it.
  useEffect(() => {
    form.setFieldsValue(Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])));
  }, [params, form]);

  const companyName = (id: string | null) => (id ? (companies.find((c) => c.id === id)?.name ?? id) : '—');
  const apply = (values: Filters) =>
    update({ ...Object.fromEntries(FILTERS.map((k) => [k, values[k]?.trim() || null])), page: null });

  return (
    <div>
      <Form<Filters> form={form} layout="vertical" onFinish={apply} initialValues={filters}>
        <Flex gap={12} wrap align="end">
          <Form.Item name="search" label="Search" style={{ marginBottom: 12 }}>
            <Input placeholder="Email, action or target" allowClear style={{ width: 220 }} />
          </Form.Item>
          <Form.Item name="action" label="Action" style={{ marginBottom: 12 }}>
            <Input placeholder="e.g. user.invite" allowClear style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="targetType" label="Target type" style={{ marginBottom: 12 }}>
            <Input placeholder="e.g. team" allowClear style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="from" label="From" style={{ marginBottom: 12 }}>
            <Input type="date" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            name="to"
            label="To"
            dependencies={['from']}
            style={{ marginBottom: 12 }}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_r: unknown, to: unknown) => {
                  const from = getFieldValue('from') as string | undefined;
                  if (from && to && String(to) < from) throw new Error('To must be on or after From');
                },
              }),
            ]}
          >
            <Input type="date" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item style={{ marginBottom: 12 }}>
            <Flex gap={8}>
              <Button type="primary" htmlType="submit">
                Apply filters
              </Button>
              <Button onClick={() => update({ ...Object.fromEntries(FILTERS.map((k) => [k, null])), page: null })}>
                Clear
              </Button>
            </Flex>
          </Form.Item>
        </Flex>
      </Form>
      {isError ? (
        <Alert
          type="error"
          showIcon
          title="The audit log could not be loaded."
          action={<Button onClick={() => refetch()}>Try again</Button>}
        />
      ) : (
        <Table<AuditEntry>
          rowKey="id"
          size="small"
          loading={isFetching}
          dataSource={data?.results ?? []}
          locale={{
            emptyText: FILTERS.some((k) => filters[k]) ? 'No changes match these filters.' : 'No changes recorded yet.',
          }}
          pagination={{ current: page, pageSize, total: data?.total ?? 0, showSizeChanger: true }}
          onChange={(p) =>
            update({
              page: p.pageSize !== pageSize || p.current === 1 ? null : p.current,
              pageSize: p.pageSize === PAGE_SIZE ? null : p.pageSize,
            })
          }
          expandable={{
            expandedRowRender: (e) => (
              <Flex gap={16} wrap>
                <Json label="Before" value={e.before} />
                <Json label="After" value={e.after} />
              </Flex>
            ),
          }}
          columns={[
            { title: 'Time', key: 'createdAt', render: (_v, e) => formatDateTime(e.createdAt) },
            { title: 'Actor', key: 'actor', render: (_v, e) => e.actor.email },
            { title: 'Action', key: 'action', render: (_v, e) => <Typography.Text code>{e.action}</Typography.Text> },
            {
              title: 'Target',
              key: 'target',
              render: (_v, e) => (
                <span>
                  <Tag>{e.targetType}</Tag>
                  {e.targetLabel}
                </span>
              ),
            },
            { title: 'Company', key: 'company', render: (_v, e) => companyName(e.companyId) },
          ]}
        />
      )}
    </div>
  );
}
