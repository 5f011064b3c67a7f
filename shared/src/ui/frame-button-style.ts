/**
 * The stylesheet of FrameButton (components.tsx): antd's default, primary and text buttons for the
 * frame and the first page. The colours come from the theme as custom properties set on each button,
 * so the sheet holds only what inline styles cannot say: hover, press, keyboard focus and disabled.
 * Added once, by the first FrameButton to render, as a `<style>` with the page's CSP nonce (a CSS
 * import would bring webpack's style-loader runtime, about 3 KB gzip, to the first page).
 */
import { useInsertionEffect } from 'react';

export const FRAME_BUTTON_CSS = `
.portal-btn {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: var(--pb-gap);
  box-sizing: border-box;
  height: var(--pb-height);
  min-width: var(--pb-height);
  margin: 0;
  padding: 0 var(--pb-padding);
  font-family: inherit;
  font-size: var(--pb-font-size);
  line-height: var(--pb-line-height);
  white-space: nowrap;
  text-decoration: none;
  color: var(--pb-color);
  background: var(--pb-bg);
  border: var(--pb-line-width) solid var(--pb-border);
  border-radius: var(--pb-radius);
  box-shadow: var(--pb-shadow);
  cursor: pointer;
  user-select: none;
  transition: color var(--pb-motion), background-color var(--pb-motion), border-color var(--pb-motion);
}
.portal-btn-icon-only {
  padding: 0;
}
.portal-btn:hover {
  color: var(--pb-hover-color);
  background: var(--pb-hover-bg);
  border-color: var(--pb-hover-border);
}
.portal-btn:active {
  color: var(--pb-active-color);
  background: var(--pb-active-bg);
  border-color: var(--pb-active-border);
}
.portal-btn:focus-visible {
  outline: var(--pb-focus-width) solid var(--pb-focus);
  outline-offset: 1px;
}
.portal-btn:disabled,
.portal-btn[aria-disabled='true'] {
  cursor: not-allowed;
  color: var(--pb-disabled-color);
  background: var(--pb-disabled-bg);
  border-color: var(--pb-disabled-border);
  box-shadow: none;
}
.portal-btn > .portal-btn-icon {
  display: inline-flex;
  font-size: var(--pb-icon-size);
}
`;

let added = false;

/** Adds the sheet to the document the first time any FrameButton renders. */
export function useFrameButtonSheet(): void {
  useInsertionEffect(() => {
    if (added || typeof document === 'undefined') return;
    added = true;
    const style = document.createElement('style');
    style.dataset.portalSheet = 'frame-button';
    const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.nonce;
    if (nonce) style.nonce = nonce;
    style.textContent = FRAME_BUTTON_CSS;
    document.head.appendChild(style);
  }, []);
}
