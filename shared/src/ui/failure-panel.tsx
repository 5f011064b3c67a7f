/**
 * The panel a part of the page shows in place of itself when it failed (web/failures.ts): what happened
 * in the words of the screen, the one action that can help, and a reference to quote to support.
 */
import { ReloadOutlined } from '@portal/shared/ui';
import type { FailureKind } from '@portal/shared/web/failures';
import { FrameButton, StatusPanel } from './components';

export function FailurePanel({
  what,
  kind,
  reference,
  onRetry,
  scope = 'portal',
}: {
  /** The part, as a title names it: "Projects", "the Interviews tab" (capitalized where a title starts with it). */
  what: string;
  kind: FailureKind;
  reference: string;
  /** A fresh attempt at the part (offered when the part could not be fetched). */
  onRetry: () => void;
  /** What keeps working meanwhile: the rest of the portal, or of this page. */
  scope?: 'portal' | 'page';
}) {
  const What = what.charAt(0).toUpperCase() + what.slice(1);
  const reload = (
    <FrameButton variant="primary" icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
      Reload
    </FrameButton>
  );
  const ref = <span style={{ display: 'block', marginTop: 8 }}>Reference: {reference}</span>;
  if (kind === 'stale') {
    return (
      <StatusPanel
        kind="warning"
        title={`A new version of ${what} is available`}
        subTitle="Reload to get it: you come back to this page."
        extra={reload}
      />
    );
  }
  if (kind === 'unavailable') {
    return (
      <StatusPanel
        kind="warning"
        title={`${What} is unavailable right now`}
        subTitle={
          <>
            {`This part of the ${scope} could not be loaded. The rest of the ${scope} keeps working; try again in a moment.`}
            {ref}
          </>
        }
        extra={
          <FrameButton variant="primary" icon={<ReloadOutlined />} onClick={onRetry}>
            Retry
          </FrameButton>
        }
      />
    );
  }
  return (
    <StatusPanel
      kind="warning"
      title={`${What} ran into a problem`}
      subTitle={
        <>
          {`Trying again will not fix it. Reload the page; if this happens again, tell your administrator the reference below. The rest of the ${scope} keeps working.`}
          {ref}
        </>
      }
      extra={reload}
    />
  );
}
