/**
 * /requests: the selected company's evidence requests. Everyone who sees requests may filter and
 * export them; staff managers also create ("New request"), import and change many at once. Choosing
 * another company in the header drops the filters that named the old company's things, and the page.
 */
import { useState } from 'react';
import { useCompanySwitch } from '@portal/shared/web/company-switch';
import { Button } from '@portal/shared/ui/button';
import { Flex, PlusOutlined, UploadOutlined } from '@portal/shared/ui/extra';
import { PageHeader } from '@portal/shared/ui/components';
import { useRequestsCompany } from '../../../app/use-requests-company';
import { withoutCompanyFilters } from '../model/list-state';
import { ExportMenu } from './export-menu';
import { ImportRequestsDialog } from './import-requests-dialog';
import { NewRequestModal } from './new-request-modal';
import { RequestsList } from './requests-list';

export function RequestsListPage() {
  const target = useRequestsCompany();
  const [dialog, setDialog] = useState<'new' | 'import' | null>(null);
  const close = () => setDialog(null);
  const usable = 'blocked' in target ? null : target;

  // another company's list waits until the address no longer names the old company's project, people, team or page
  const switching = useCompanySwitch(usable?.companyId ?? null, withoutCompanyFilters);

  const actions = usable ? (
    <Flex gap="small" wrap align="center" justify="flex-end">
      {usable.manage ? (
        <>
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setDialog('new')}>
            New request
          </Button>
          <Button icon={<UploadOutlined aria-hidden />} onClick={() => setDialog('import')}>
            Import
          </Button>
        </>
      ) : null}
      <ExportMenu companyId={usable.companyId} />
    </Flex>
  ) : undefined;

  return (
    <div data-testid="requests-list">
      <PageHeader title="Requests" crumbs={[{ title: 'Requests' }]} extra={actions} />
      {'blocked' in target ? (
        target.blocked
      ) : switching ? null : (
        // the company's key: another company's filters, selection and dialogs never carry over
        <div key={target.companyId}>
          <RequestsList companyId={target.companyId} staff={target.staff} manage={target.manage} />
          {target.manage && dialog === 'new' ? <NewRequestModal companyId={target.companyId} onClose={close} /> : null}
          {target.manage && dialog === 'import' ? (
            <ImportRequestsDialog companyId={target.companyId} onClose={close} />
          ) : null}
        </div>
      )}
    </div>
  );
}
