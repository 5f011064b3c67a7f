/**
 * The stylesheet of the first page's own components, FrameButton (components.tsx) and Spin
 * (spin.tsx): what inline styles cannot say (hover, press, keyboard focus, disabled, animation).
 * Their colours and sizes come from the theme as custom properties set on each element.
 * Added once, by the first of them to render, as a `<style>` with the page's CSP nonce (a CSS import
 * would bring webpack's style-loader runtime, about 3 KB gzip, to the first page).
 */
import { useInsertionEffect } from 'react';

export const FRAME_SHEET_CSS = `
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
}
.portal-spin {
  display: inline-block;
  color: var(--ps-color);
  line-height: 1;
}
.portal-spin-dot {
  position: relative;
  display: inline-block;
  width: 1em;
  height: 1em;
  font-size: var(--ps-size);
  transform: rotate(45deg);
  animation: portal-spin-rotate 1.2s infinite linear;
}
.portal-spin-dot > i {
  position: absolute;
  display: block;
  width: calc((1em - 2px) / 2);
  height: calc((1em - 2px) / 2);
  background: currentColor;
  border-radius: 100%;
  transform: scale(0.75);
  transform-origin: 50% 50%;
  opacity: 0.3;
  animation: portal-spin-move 1s infinite linear alternate;
}
.portal-spin-dot > i:nth-child(1) { top: 0; inset-inline-start: 0; }
.portal-spin-dot > i:nth-child(2) { top: 0; inset-inline-end: 0; animation-delay: 0.4s; }
.portal-spin-dot > i:nth-child(3) { bottom: 0; inset-inline-end: 0; animation-delay: 0.8s; }
.portal-spin-dot > i:nth-child(4) { bottom: 0; inset-inline-start: 0; animation-delay: 1.2s; }
@keyframes portal-spin-rotate { to { transform: rotate(405deg); } }
@keyframes portal-spin-move { to { opacity: 1; } }
@media (prefers-reduced-motion: reduce) {
  .portal-spin-dot { animation-duration: 3.6s; }
  .portal-spin-dot > i { animation: none; opacity: 0.6; }
}
`;

let added = false;

/** Adds the sheet to the document the first time any of the first page's own components renders. */
export function useFrameSheet(): void {
  useInsertionEffect(() => {
    if (added || typeof document === 'undefined') return;
    added = true;
    const style = document.createElement('style');
    style.dataset.portalSheet = 'frame';
    const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.nonce;
    if (nonce) style.nonce = nonce;
    style.textContent = FRAME_SHEET_CSS;
    document.head.appendChild(style);
  }, []);
}
