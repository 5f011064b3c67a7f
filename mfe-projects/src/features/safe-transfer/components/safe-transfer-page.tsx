import { ComingSoon, PageHeader } from '@portal/shared/ui/components';

export function SafeTransferPage() {
  return (
    <div data-testid="safe-transfer">
      <PageHeader title="Safe Transfer" crumbs={[{ title: 'Safe Transfer' }]} />
      <ComingSoon what="Safe Transfer" />
    </div>
  );
}
