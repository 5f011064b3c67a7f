import { useSelector } from '@portal/shared/web/store';
import { useParams } from '@portal/shared/web/router';
import { Card, Descriptions } from '@portal/shared/ui/extra';
import { ComingSoon, PageHeader } from '@portal/shared/ui/components';
import { sessionSelectors, type SessionState } from '@portal/shared/web/session';

type Root = { session: SessionState };

export function PersonalSettingsPage() {
  const user = useSelector((s: Root) => sessionSelectors.selectUser(s));
  return (
    <div data-testid="settings-personal">
      <PageHeader title="Settings" crumbs={[{ title: 'Settings' }]} />
      <Card title="Personal settings">
        {user ? (
          <Descriptions column={1} size="small">
            <Descriptions.Item label="Name">{`${user.firstName} ${user.lastName}`}</Descriptions.Item>
            <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
            <Descriptions.Item label="Title">{user.title ?? '—'}</Descriptions.Item>
          </Descriptions>
        ) : null}
      </Card>
    </div>
  );
}

export function SettingsTabPage({ title, what }: { title: string; what: string }) {
  return (
    <div>
      <PageHeader title={title} crumbs={[{ title: 'Settings', to: '/settings' }, { title }]} />
      <ComingSoon what={what} />
    </div>
  );
}

export function CompanyUserPage() {
  const { userId } = useParams();
  return (
    <div>
      <PageHeader title="Company user" crumbs={[{ title: 'Settings', to: '/settings' }, { title: 'Company', to: '/settings/company' }, { title: String(userId) }]} />
      <ComingSoon what="Company user details" />
    </div>
  );
}

export function StaffUserPracticesPage({ brand }: { brand: string }) {
  const { userId } = useParams();
  return (
    <div>
      <PageHeader title="User practices" crumbs={[{ title: 'Settings', to: '/settings' }, { title: brand, to: '/settings/tevora' }, { title: String(userId) }]} />
      <ComingSoon what="A user's practices" />
    </div>
  );
}

export function PracticeDetailPage() {
  const { practiceId } = useParams();
  return (
    <div>
      <PageHeader title="Practice" crumbs={[{ title: 'Settings', to: '/settings' }, { title: 'Practices & Templates', to: '/settings/practices' }, { title: String(practiceId) }]} />
      <ComingSoon what="Practice details" />
    </div>
  );
}
