/**
 * Portal messages are HTML written by staff admins and stored as given: every one is sanitized here
 * before it reaches the page. DOMPurify drops scripts, event handlers (`onerror`…) and `javascript:`
 * URLs; forms, styles and frames are not message content either. Loaded only with a message to show.
 */
import DOMPurify from 'dompurify';

// An instance of its own: the hook below does not reach other users of DOMPurify.
const purify = DOMPurify(window);

// Links in a message open in a new tab, without giving that tab a handle on the portal.
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

export function sanitizeMessageHtml(html: string): string {
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
    FORBID_ATTR: ['style'],
  });
}
