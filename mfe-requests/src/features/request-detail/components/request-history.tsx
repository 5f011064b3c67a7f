import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Card, Empty, Skeleton, Timeline, Typography } from '@portal/shared/ui/extra';
import { formatDateTime } from '@portal/shared/core/dates';
import { useRequestHistoryQuery } from '../../../app/requests-api';
import { historyLine } from '../model/history-text';

/** The request's history, oldest first: who did what, and when. */
export function RequestHistory({ requestId }: { requestId: string }) {
  const history = useRequestHistoryQuery(requestId);
  const events = [...(history.currentData ?? [])].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return (
    <Card title="History" data-testid="request-history">
      {history.isLoading ? (
        <Skeleton active />
      ) : history.isError && !history.isFetching ? (
        <Empty description="The history could not be loaded.">
          <Button icon={<ReloadOutlined />} onClick={() => void history.refetch()}>
            Try again
          </Button>
        </Empty>
      ) : !events.length ? (
        <Typography.Paragraph type="secondary">Nothing has happened yet.</Typography.Paragraph>
      ) : (
        <Timeline
          items={events.map((e) => ({
            key: e.id,
            content: (
              <div data-testid="history-entry">
                <Typography.Text style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {historyLine(e)}
                </Typography.Text>
                <br />
                <Typography.Text type="secondary">
                  <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
                </Typography.Text>
              </div>
            ),
          }))}
        />
      )}
    </Card>
  );
}
