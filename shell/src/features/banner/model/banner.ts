import type { PortalMessage } from '@portal/shared/core/schemas';

/** Visible text of an HTML value: tags and entities for spaces removed (no DOM needed). */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|&#xa0;/gi, ' ')
    .trim();
}

/**
 * The banner to show, or null: the first item of the list, shown only while its status is active,
 * its text is non-empty and this user has not closed this version.
 */
export function visibleBanner(messages: PortalMessage[] | undefined): PortalMessage | null {
  const banner = messages?.[0];
  if (!banner || banner.status !== 'active' || banner.dismissed) return null;
  return visibleText(banner.value) === '' ? null : banner;
}
