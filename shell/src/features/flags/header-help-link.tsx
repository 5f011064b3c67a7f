import { FrameLinkButton } from '@portal/shared/ui/components';
import { useFeatureFlag } from '@portal/shared/web/flags';

export const DEFAULT_HELP_URL = 'mailto:support@demo.test';

/** Only web, mail and same-site addresses: a flag value never becomes a script URL. */
export function safeHelpUrl(value: string): string {
  if (/^\/(?!\/)/.test(value)) return value;
  try {
    const url = new URL(value);
    return ['https:', 'http:', 'mailto:'].includes(url.protocol) ? url.href : DEFAULT_HELP_URL;
  } catch {
    return DEFAULT_HELP_URL;
  }
}

/** The header's Help link, shown while the `header-help-link` flag is on; `help-url` says where it leads. */
export function HeaderHelpLink() {
  const shown = useFeatureFlag('header-help-link', false);
  const href = safeHelpUrl(useFeatureFlag('help-url', DEFAULT_HELP_URL));
  if (!shown) return null;
  const newTab = /^https?:/.test(href);
  return (
    <FrameLinkButton
      variant="text"
      href={href}
      aria-label="Help"
      data-testid="header-help-link"
      {...(newTab ? { target: '_blank', rel: 'noreferrer' } : {})}
    >
      Help
    </FrameLinkButton>
  );
}
