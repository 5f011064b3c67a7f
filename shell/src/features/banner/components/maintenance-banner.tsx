import { useMemo } from 'react';
import type { PortalMessage } from '@portal/shared/core/schemas';
import { Alert } from '@portal/shared/ui/extra';
import { sanitizeMessageHtml } from '@portal/shared/web/sanitize';

/**
 * The maintenance banner: a warning across the top with the staff admins' HTML,
 * sanitized, and a close button. Loaded, with DOMPurify and the extra UI kit, only when there is one.
 */
export default function MaintenanceBanner({ banner, onClose }: { banner: PortalMessage; onClose: () => void }) {
  const html = useMemo(() => sanitizeMessageHtml(banner.value), [banner.value]);
  return (
    <Alert
      type="warning"
      banner
      showIcon
      data-testid="maintenance-banner"
      title={<span dangerouslySetInnerHTML={{ __html: html }} />}
      closable={{ 'aria-label': 'Close the maintenance banner', onClose }}
    />
  );
}
