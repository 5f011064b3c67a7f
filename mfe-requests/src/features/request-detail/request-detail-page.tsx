/** The request detail page (/requests/:requestId): header and workflow, details, evidence, comments, history. */
import { useState } from 'react';
import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { PageHeader, StatusPanel } from '@portal/shared/ui/components';
import { Alert, Card, Col, Flex, Row, Skeleton, Tag } from '@portal/shared/ui/extra';
import { Link, useParams } from '@portal/shared/web/router';
import { REQUEST_STATUS_LABELS, type RequestDetail } from '@portal/shared/core/requests';
import { REQUEST_OVERDUE_COLOR, REQUEST_STATUS_COLORS, isOverdueLocally } from '../../app/labels';
import { REQUESTS_PATH } from '../../app/paths';
import { useRequestDetailQuery } from '../../app/requests-api';
import { RequestActions, type ActionOutcome } from './components/request-actions';
import { RequestComments } from './components/request-comments';
import { RequestDetails } from './components/request-details';
import { RequestEvidence } from './components/request-evidence';
import { RequestHistory } from './components/request-history';
import { useEvidenceUploads } from './hooks/use-evidence-uploads';
import { errorCode, errorStatus } from './model/errors';

const STALE = 'The request changed while you were looking at it, so it was reloaded. Check it and try again.';

/**
 * One request's page. Mounted afresh for each request (keyed by its id), so nothing typed or shown for
 * one request (a comment, the Internal box, an action's alert) carries over to another; its uploads are
 * the request's own (they go on, and show again, only on its page).
 */
function RequestView({ request, reload }: { request: RequestDetail; reload: () => void }) {
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const uploads = useEvidenceUploads(
    request.id,
    request.files.map((f) => f.id),
  );
  const onOutcome = (next: ActionOutcome | null) => {
    setOutcome(next);
    if (next?.kind === 'stale') reload();
  };
  return (
    <Flex vertical gap="large" data-testid="request-detail">
      <div>
        <PageHeader
          title={request.title}
          crumbs={[{ title: 'Requests', to: REQUESTS_PATH }, { title: request.reference }]}
          extra={<RequestActions request={request} uploadsBusy={uploads.busy} onOutcome={onOutcome} />}
        />
        <Flex gap="small" wrap align="center">
          <Tag data-testid="request-reference">{request.reference}</Tag>
          <Tag data-testid="request-status" color={REQUEST_STATUS_COLORS[request.status]}>
            {REQUEST_STATUS_LABELS[request.status]}
          </Tag>
          {isOverdueLocally(request) ? <Tag color={REQUEST_OVERDUE_COLOR}>Overdue</Tag> : null}
        </Flex>
      </div>
      {outcome ? (
        <Alert
          type={outcome.kind === 'stale' ? 'warning' : 'error'}
          showIcon
          title={outcome.kind === 'stale' ? STALE : outcome.message}
          closable={{ onClose: () => setOutcome(null) }}
        />
      ) : null}
      {request.status === 'returned' ? (
        <Alert
          type="warning"
          showIcon
          data-testid="request-returned"
          title={request.returnReason ? `Returned: ${request.returnReason}` : 'Returned'}
          style={{ whiteSpace: 'pre-wrap' }}
        />
      ) : null}
      <Row gutter={[24, 24]}>
        <Col xs={24} xl={16}>
          <Flex vertical gap="large">
            <RequestDetails request={request} />
            <RequestEvidence request={request} uploads={uploads} />
            <RequestComments request={request} />
          </Flex>
        </Col>
        <Col xs={24} xl={8}>
          <RequestHistory requestId={request.id} />
        </Col>
      </Row>
    </Flex>
  );
}

function LoadingRequest() {
  return (
    <div role="status" aria-label="Loading the request">
      <PageHeader title="Request" crumbs={[{ title: 'Requests', to: REQUESTS_PATH }]} />
      <Flex vertical gap="large">
        <Card>
          <Skeleton active paragraph={{ rows: 4 }} />
        </Card>
        <Card>
          <Skeleton active paragraph={{ rows: 2 }} />
        </Card>
      </Flex>
    </div>
  );
}

/** Loads the request of the address: its page, or loading, "Request not found", no access, or a failure with a retry. */
export function RequestDetailPage() {
  const { requestId = '' } = useParams();
  const query = useRequestDetailQuery(requestId, { skip: !requestId });
  const status = query.isError ? errorStatus(query.error) : null;
  // a request gone or out of reach says so; any other failed reload keeps what is on screen (and typed)
  const request = query.data?.id === requestId && status !== 404 && status !== 403 ? query.data : undefined;
  if (request) return <RequestView key={request.id} request={request} reload={() => void query.refetch()} />;
  if (query.isFetching || query.isUninitialized) return <LoadingRequest />;
  if (status === 404) {
    return (
      <StatusPanel
        kind="notFound"
        title="Request not found"
        subTitle="The request does not exist or you do not have access to it."
        extra={<Link to={REQUESTS_PATH}>Back to Requests</Link>}
      />
    );
  }
  if (status === 403) {
    return (
      <StatusPanel
        kind="forbidden"
        title="Requests are not available"
        subTitle={
          errorCode(query.error) === 'module_access_denied'
            ? 'Your access to this request’s company does not include the requests module.'
            : 'You do not have access to this request.'
        }
        extra={<Link to={REQUESTS_PATH}>Back to Requests</Link>}
      />
    );
  }
  return (
    <StatusPanel
      kind="warning"
      title="The request could not be loaded"
      subTitle="Check your connection and try again."
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
          Try again
        </Button>
      }
    />
  );
}
