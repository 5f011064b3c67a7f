/**
 * Home's "My requests": the few evidence requests that wait for the user, soonest due first (overdue
 * ones on top, per the user's own day), each a link into the requests module. Loaded on demand by the
 * dashboard page, which shows it only when the requests module is on for the user in the selected
 * company (and never to auditors). Only the selected company's requests show: after a switch, the
 * section waits for the new company's instead of showing the old ones.
 */
import { Link } from '@portal/shared/web/router';
import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Flex, Skeleton, Tag, Typography } from '@portal/shared/ui/extra';
import { formatDate } from '@portal/shared/core/dates';
import {
  isRequestOverdue,
  localDay,
  REQUEST_OVERDUE_COLOR,
  REQUEST_STATUS_COLORS,
  REQUEST_STATUS_LABELS,
  type RequestSummary,
} from '@portal/shared/core/requests';
import { errorMessage } from '@portal/shared/web/api';
import { myRequestsApi, myRequestsListPath } from '../../../app/my-requests-api';

/** Past due on the user's own day (the api's `overdue` uses the server's UTC day). */
const overdueLocally = (r: RequestSummary, today: string) => isRequestOverdue(r.dueDate, r.status, today);

/** Overdue first, the server's due date order otherwise (the sort is stable). */
function overdueFirst(requests: RequestSummary[], today: string) {
  return [...requests].sort((a, b) => Number(overdueLocally(b, today)) - Number(overdueLocally(a, today)));
}

export function MyRequests({ companyId, staff }: { companyId: string; staff: boolean }) {
  const list = myRequestsApi.useDashboardMyRequestsQuery({ companyId, staff });

  if (list.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="Your requests could not be loaded"
        description={errorMessage(list.error) ?? 'Check your connection and try again.'}
        action={
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()}>
            Retry
          </Button>
        }
      />
    );
  }
  // currentData: the reply for this company only (data would keep the previous company's meanwhile)
  if (!list.currentData) {
    return (
      <div role="status" aria-label="Loading requests">
        <Skeleton active title={false} paragraph={{ rows: 3 }} />
      </div>
    );
  }

  const today = localDay();
  const requests = overdueFirst(list.currentData.results, today);
  return (
    <Flex vertical gap={8}>
      {requests.length ? (
        <ul
          aria-label="Requests waiting for you"
          style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 8 }}
        >
          {requests.map((r) => (
            <li key={r.id} style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
              <Link to={`/requests/${encodeURIComponent(r.id)}`}>{`${r.reference} ${r.title}`}</Link>
              <Tag color={REQUEST_STATUS_COLORS[r.status]}>{REQUEST_STATUS_LABELS[r.status]}</Tag>
              {r.dueDate ? <Typography.Text type="secondary">Due {formatDate(r.dueDate)}</Typography.Text> : null}
              {overdueLocally(r, today) ? <Tag color={REQUEST_OVERDUE_COLOR}>Overdue</Tag> : null}
            </li>
          ))}
        </ul>
      ) : (
        <Typography.Text type="secondary">Nothing needs your attention</Typography.Text>
      )}
      <Link to={myRequestsListPath(staff)}>View all</Link>
    </Flex>
  );
}
