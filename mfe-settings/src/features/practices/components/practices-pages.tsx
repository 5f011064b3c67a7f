import { useParams } from '@portal/shared/web/router';
import { ComingSoon, PageHeader } from '@portal/shared/ui/components';

/** Practices & Templates: the practices issue (7) fills these in. */
export function PracticesPage() {
  return (
    <div>
      <PageHeader title="Practices & Templates" crumbs={[{ title: 'Settings', to: '/settings' }, { title: 'Practices & Templates' }]} />
      <ComingSoon what="Practices & Templates" />
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
