/**
 * The portal runs under a Content-Security-Policy (api/src/plugins/app/security-headers.ts): no eval, and
 * inline styles only with the page load's nonce, which the api puts in index.html as
 * `<meta name="csp-nonce" nonce="…">` (none under the webpack dev server).
 * Every `<style>` the portal adds needs it: antd's CSS-in-JS gets it from ConfigProvider `csp`, webpack's
 * style-loader from `__webpack_nonce__`, and what ignores both (rc-util's scroll locker and scrollbar
 * measure, react-component/util#613; a remote's own style-loader) from `document.createElement`.
 */

declare let __webpack_nonce__: string;

export const cspNonce: string = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.nonce ?? '';

/** Before any chunk loads (src/index.ts). */
export function applyCspNonce(nonce = cspNonce): void {
  // zod 4 keeps its settings on globalThis.__zod_globalConfig (zod/v4/core/core.js), shared by every
  // copy of it: jitless, or its schemas try `new Function`, which the CSP refuses. Set without
  // importing zod, so the entry chunk stays small.
  const zod = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  (zod.__zod_globalConfig ??= {}).jitless = true;
  if (!nonce) return;
  __webpack_nonce__ = nonce;
  const create = document.createElement;
  document.createElement = function (this: Document, tagName: string, options?: ElementCreationOptions) {
    const element = create.call(this, tagName, options);
    if (element instanceof HTMLStyleElement) element.nonce = nonce;
    return element;
  } as typeof document.createElement;
}
