import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from '@portal/shared/web/router';
import { Button } from '@portal/shared/ui/button';
import {
  Alert,
  EditOutlined,
  Empty,
  Flex,
  Input,
  PlusOutlined,
  Radio,
  Space,
  Table,
  Typography,
  type TableProps,
} from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { formatDateTime } from '@portal/shared/core/dates';
import type { PracticeSummary } from '@portal/shared/core/practices';
import { errorMessage } from '@portal/shared/web/api';
import {
  useSettingsPracticeCreateMutation,
  useSettingsPracticesSearchQuery,
  useSettingsPracticeUpdateMutation,
} from '../api/practices-api';
import { useCanEditPractices, useRetirePractice } from './practice-actions';
import { DEFAULT_STATUS, PAGE_SIZE, practicesListFrom, type PracticeStatusFilter } from '../model/practices-query';
import { PracticeFormModal } from './practice-form-modal';
import { PracticeStatusTag } from './status-tags';

const STATUS_OPTIONS: { value: PracticeStatusFilter; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'retired', label: 'Retired' },
  { value: 'all', label: 'All' },
];

/** /settings/practices: the practices with their templates, staff and projects; editors add, edit, retire and restore. */
export function PracticesPage() {
  const canEdit = useCanEditPractices();
  const [params, setParams] = useSearchParams();
  const state = practicesListFrom(params);
  const list = useSettingsPracticesSearchQuery({ status: state.status, search: state.search || undefined });
  const [create] = useSettingsPracticeCreateMutation();
  const [update] = useSettingsPracticeUpdateMutation();
  const [retire, retireHolder] = useRetirePractice();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<PracticeSummary | null>(null);
  const editValues = useMemo(
    () => (editing ? { name: editing.name, description: editing.description ?? '' } : undefined),
    [editing],
  );

  // The box follows the address (back, forward, a link); Enter or the search button sets it.
  const [text, setText] = useState(state.search);
  useEffect(() => setText(state.search), [state.search]);

  const setAddress = (changes: Partial<Record<'status' | 'search' | 'page', string | null>>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      return next;
    });

  const columns: TableProps<PracticeSummary>['columns'] = [
    {
      title: 'Name',
      key: 'name',
      render: (_v, p) => <Link to={`/settings/practices/${encodeURIComponent(p.id)}`}>{p.name}</Link>,
    },
    {
      title: 'Description',
      key: 'description',
      render: (_v, p) =>
        p.description ? (
          <Typography.Text ellipsis={{ tooltip: p.description }} style={{ maxWidth: 320 }}>
            {p.description}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    { title: 'Status', key: 'status', render: (_v, p) => <PracticeStatusTag status={p.status} /> },
    {
      title: 'Templates',
      key: 'templates',
      render: (_v, p) => (
        <span
          aria-label={`${p.publishedTemplateCount} of ${p.templateCount} templates published`}
        >{`${p.publishedTemplateCount}/${p.templateCount}`}</span>
      ),
    },
    { title: 'Staff', key: 'staff', dataIndex: 'staffCount' },
    { title: 'Projects', key: 'projects', dataIndex: 'projectCount' },
    { title: 'Updated', key: 'updatedAt', render: (_v, p) => formatDateTime(p.updatedAt) },
    ...(canEdit
      ? [
          {
            title: 'Actions',
            key: 'actions',
            render: (_v: unknown, p: PracticeSummary) => (
              <Space size={4}>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={`Edit ${p.name}`}
                  onClick={() => setEditing(p)}
                />
                <Button
                  size="small"
                  danger={p.status === 'active'}
                  aria-label={`${p.status === 'active' ? 'Retire' : 'Restore'} ${p.name}`}
                  onClick={() => retire(p)}
                >
                  {p.status === 'active' ? 'Retire' : 'Restore'}
                </Button>
              </Space>
            ),
          },
        ]
      : []),
  ];

  const filtered = state.search || state.status !== 'all';
  // an address past the last page (a stale link, rows gone since) says so instead of "No practices yet"
  const lastPage = Math.max(1, Math.ceil((list.data?.length ?? 0) / PAGE_SIZE));
  const pastEnd = !!list.data && state.page > lastPage;
  const firstPage = (() => {
    const next = new URLSearchParams(params);
    next.delete('page');
    return { search: next.toString() };
  })();
  return (
    <div data-testid="settings-practices">
      {retireHolder}
      <PageHeader
        title="Practices & Templates"
        crumbs={[{ title: 'Settings', to: '/settings' }, { title: 'Practices & Templates' }]}
        extra={
          canEdit ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              New practice
            </Button>
          ) : null
        }
      />
      <Flex gap="middle" wrap align="center" style={{ marginBottom: 16 }}>
        <Input.Search
          aria-label="Search practices"
          placeholder="Name or description"
          allowClear
          maxLength={100}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onSearch={(value) => setAddress({ search: value.trim(), page: null })}
          style={{ width: 280 }}
        />
        <Radio.Group
          aria-label="Status"
          optionType="button"
          options={STATUS_OPTIONS}
          value={state.status}
          onChange={(e) =>
            setAddress({ status: e.target.value === DEFAULT_STATUS ? null : String(e.target.value), page: null })
          }
        />
        {!canEdit ? (
          <Typography.Text type="secondary">Changing practices needs the permission to edit practices.</Typography.Text>
        ) : null}
      </Flex>
      {list.isError ? (
        <Alert
          type="error"
          showIcon
          title="The practices could not be loaded."
          description={errorMessage(list.error) ?? undefined}
          action={<Button onClick={() => list.refetch()}>Try again</Button>}
        />
      ) : pastEnd ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <span role="status">
              {`There is no page ${state.page}: ${list.data?.length ? `the list has ${lastPage} ${lastPage === 1 ? 'page' : 'pages'}` : filtered ? 'no practices match these filters' : 'there are no practices yet'}.`}
            </span>
          }
        >
          <Link to={firstPage}>Go to page 1</Link>
        </Empty>
      ) : (
        <Table<PracticeSummary>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data ?? []}
          loading={list.isFetching}
          locale={{
            emptyText: list.isLoading
              ? 'Loading practices…'
              : filtered
                ? 'No practices match these filters.'
                : 'No practices yet.',
          }}
          pagination={{ current: state.page, pageSize: PAGE_SIZE, hideOnSinglePage: true, showSizeChanger: false }}
          onChange={(pagination) =>
            setAddress({ page: pagination.current && pagination.current > 1 ? String(pagination.current) : null })
          }
        />
      )}
      <PracticeFormModal
        open={creating}
        title="New practice"
        formName="practice-create"
        okText="Create"
        onSubmit={(body) => create(body).unwrap()}
        onClose={() => setCreating(false)}
      />
      <PracticeFormModal
        open={!!editing}
        title="Edit practice"
        formName="practice-edit"
        okText="Save"
        initial={editValues}
        onSubmit={(body) => update({ id: editing!.id, body }).unwrap()}
        onClose={() => setEditing(null)}
      />
    </div>
  );
}
