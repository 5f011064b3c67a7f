import { ReloadOutlined } from '@portal/shared/ui';
import { Button } from '@portal/shared/ui/button';
import { Alert, Skeleton } from '@portal/shared/ui/extra';
import { errorMessage } from '@portal/shared/web/api';

export function SectionLoading({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label}>
      <Skeleton active />
    </div>
  );
}

/** A section whose data could not be loaded: what failed, the api's reason when it gave one, and a retry. */
export function SectionError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  return (
    <Alert
      type="error"
      showIcon
      title={`${what} could not be loaded`}
      description={errorMessage(error) ?? 'Check your connection and try again.'}
      action={
        <Button icon={<ReloadOutlined />} onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

/** Why the controls of a section are disabled: shown instead of hiding them. */
export function ReadOnlyNote({ children }: { children: string }) {
  return <Alert type="info" showIcon title={children} style={{ marginBottom: 16 }} />;
}
