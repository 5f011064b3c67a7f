import { useMemo, useState } from 'react';
import { Link, useParams } from '@portal/shared/web/router';
import { Spin } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Card, Descriptions, EditOutlined, Space, Typography, UploadOutlined } from '@portal/shared/ui/extra';
import { PageHeader, StatusPanel } from '@portal/shared/ui/components';
import { formatDateTime } from '@portal/shared/core/dates';
import { errorMessage } from '@portal/shared/web/api';
import { fullName } from '../../../app/users';
import { useSettingsPracticeGetQuery, useSettingsPracticeUpdateMutation } from '../api/practices-api';
import { PracticeFormModal } from './practice-form-modal';
import { useCanEditPractices, useRetirePractice } from './practice-actions';
import { PracticeStatusTag } from './status-tags';
import { TemplateFileModal, type TemplateFileTarget } from './template-file-modal';
import { TemplatesTable } from './templates-table';

const LIST_CRUMBS = [
  { title: 'Settings', to: '/settings' },
  { title: 'Practices & Templates', to: '/settings/practices' },
];

/** /settings/practices/:practiceId: a practice, its staff and its task tracker templates. */
export function PracticeDetailPage() {
  const { practiceId = '' } = useParams();
  const canEdit = useCanEditPractices();
  const practice = useSettingsPracticeGetQuery(practiceId, { skip: !practiceId });
  const [update] = useSettingsPracticeUpdateMutation();
  const [retire, retireHolder] = useRetirePractice();
  const [editing, setEditing] = useState(false);
  const [fileTarget, setFileTarget] = useState<TemplateFileTarget | null>(null);
  // each opening of the file dialog is a new one: nothing stale, the first field focused
  const [fileOpenings, setFileOpenings] = useState(0);
  const openFile = (target: TemplateFileTarget) => {
    setFileOpenings((n) => n + 1);
    setFileTarget(target);
  };
  const p = practice.data;
  const editValues = useMemo(() => (p ? { name: p.name, description: p.description ?? '' } : undefined), [p]);

  const status = (practice.error as { status?: unknown } | undefined)?.status;
  if (practice.isLoading) {
    return (
      <div>
        <PageHeader title="Practice" crumbs={[...LIST_CRUMBS, { title: 'Practice' }]} />
        <div style={{ padding: 48, textAlign: 'center' }}>
          <Spin aria-label="Loading practice" />
        </div>
      </div>
    );
  }
  if (status === 404 || status === 400) {
    return (
      <div>
        <PageHeader title="Practice" crumbs={[...LIST_CRUMBS, { title: 'Not found' }]} />
        <StatusPanel
          nested
          kind="notFound"
          title="Practice not found"
          subTitle="This practice does not exist, or it was removed."
          extra={<Link to="/settings/practices">Back to Practices & Templates</Link>}
        />
      </div>
    );
  }
  if (practice.isError || !p) {
    return (
      <div>
        <PageHeader title="Practice" crumbs={[...LIST_CRUMBS, { title: 'Practice' }]} />
        <Alert
          type="error"
          showIcon
          title="The practice could not be loaded."
          description={errorMessage(practice.error) ?? undefined}
          action={<Button onClick={() => practice.refetch()}>Try again</Button>}
        />
      </div>
    );
  }

  return (
    <div data-testid="settings-practice">
      {retireHolder}
      <PageHeader
        title={p.name}
        crumbs={[...LIST_CRUMBS, { title: p.name }]}
        extra={
          canEdit ? (
            <Space>
              <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
                Edit practice
              </Button>
              <Button danger={p.status === 'active'} onClick={() => retire(p)}>
                {p.status === 'active' ? 'Retire practice' : 'Restore practice'}
              </Button>
            </Space>
          ) : null
        }
      />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card title="Details">
          {p.status === 'retired' ? (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              title="This practice is retired: its templates cannot be applied to projects, and it cannot be chosen for staff or new projects."
            />
          ) : null}
          <Descriptions column={{ xs: 1, md: 2 }} size="small">
            <Descriptions.Item label="Status">
              <PracticeStatusTag status={p.status} />
            </Descriptions.Item>
            <Descriptions.Item label="Updated">{formatDateTime(p.updatedAt)}</Descriptions.Item>
            <Descriptions.Item label="Projects">{p.projectCount}</Descriptions.Item>
            <Descriptions.Item label="Templates">{`${p.publishedTemplateCount} published of ${p.templateCount}`}</Descriptions.Item>
            <Descriptions.Item label="Description" span={2}>
              {p.description ? (
                <span style={{ whiteSpace: 'pre-wrap' }}>{p.description}</span>
              ) : (
                <Typography.Text type="secondary">No description.</Typography.Text>
              )}
            </Descriptions.Item>
          </Descriptions>
        </Card>
        <Card title={`Staff (${p.staff.length})`}>
          {p.staff.length ? (
            <ul
              aria-label="Staff of the practice"
              style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 6 }}
            >
              {p.staff.map((u) => (
                <li key={u.id}>
                  <Link to={`/settings/tevora/user/${encodeURIComponent(u.id)}`}>{fullName(u)}</Link>{' '}
                  <Typography.Text type="secondary">{u.email}</Typography.Text>
                </li>
              ))}
            </ul>
          ) : (
            <Typography.Text type="secondary">
              No staff are assigned this practice. Assign practices on a staff user&apos;s page.
            </Typography.Text>
          )}
        </Card>
        <Card
          title={<h3 style={{ margin: 0, fontSize: 'inherit' }}>Templates</h3>}
          extra={
            canEdit ? (
              <Button
                type="primary"
                icon={<UploadOutlined />}
                onClick={() => openFile({ kind: 'import', practiceId: p.id })}
              >
                Import template
              </Button>
            ) : null
          }
        >
          <TemplatesTable
            practiceId={p.id}
            canEdit={canEdit}
            onReplace={(t) => openFile({ kind: 'replace', practiceId: p.id, tracker: t })}
          />
        </Card>
      </Space>
      {canEdit ? (
        <>
          <PracticeFormModal
            open={editing}
            title="Edit practice"
            formName="practice-edit"
            okText="Save"
            initial={editValues}
            onSubmit={(body) => update({ id: p.id, body }).unwrap()}
            onClose={() => setEditing(false)}
          />
          <TemplateFileModal key={fileOpenings} target={fileTarget} onClose={() => setFileTarget(null)} />
        </>
      ) : null}
    </div>
  );
}
