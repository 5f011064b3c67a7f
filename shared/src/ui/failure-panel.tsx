/**
 * The panel a part of the page shows in place of itself when it failed, in the kit's look: how it
 * failed (web/failures.ts: a newer release, out of reach, built for another contract, or broken) in the words of the screen, the
 * one action that can help, and a reference to quote to support. Off the first page: FailureView
 * (web/failure-view.tsx) loads it, and shows a plain stand-in until it is there.
 */
import { useEffect, useState } from 'react';
import { ReloadOutlined } from '@portal/shared/ui';
import { FrameButton, StatusPanel } from '@portal/shared/ui/components';
import type { FailureViewProps } from '@portal/shared/web/deferred';
import { confirmFailureKind, failureKind, failureText } from '../web/failures';

export function FailurePanel({ what, error, reference, onRetry, scope = 'portal' }: FailureViewProps) {
  const [kind, setKind] = useState(() => failureKind(error));
  useEffect(() => {
    let live = true;
    void confirmFailureKind(error, failureKind(error)).then((confirmed) => live && setKind(confirmed));
    return () => {
      live = false;
    };
  }, [error]);
  const text = failureText(kind, what, scope, error);
  return (
    <StatusPanel
      kind="warning"
      title={text.title}
      subTitle={
        <>
          {text.body}
          {text.withReference ? <span style={{ display: 'block', marginTop: 8 }}>Reference: {reference}</span> : null}
        </>
      }
      extra={
        <FrameButton
          variant="primary"
          icon={<ReloadOutlined />}
          onClick={text.action === 'reload' ? () => window.location.reload() : onRetry}
        >
          {text.action === 'reload' ? 'Reload' : 'Retry'}
        </FrameButton>
      }
    />
  );
}
