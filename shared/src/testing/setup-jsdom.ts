/** jsdom shims antd and react-router need (APIs jsdom lacks, such as TextEncoder). */
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { TextDecoder, TextEncoder } from 'util';

// antd in jsdom is slow, and slower still when CI runs every package at once on two cores: findBy… and
// waitFor wait up to 15 s (they return as soon as the element is there, so only a failing test waits
// the whole time).
configure({ asyncUtilTimeout: 15_000 });
// One limit for every jsdom test, here rather than in each file: a screen test drives antd through
// many renders, and CI runs every package's suite on two cores at once, so a test that takes 5 s alone
// can take a minute there. A hung test still fails, just later.
jest.setTimeout(180_000);

Object.assign(globalThis, { TextEncoder, TextDecoder });
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
const original = window.getComputedStyle;
window.getComputedStyle = (elt: Element) => original.call(window, elt);

// Node's fetch and Request (kept by jest-fixed-jsdom for msw) need absolute URLs; a browser resolves
// relative ones against the page, and so do these wrappers.
const resolve = (input: unknown) =>
  typeof input === 'string' && input.startsWith('/') ? new URL(input, window.location.href).toString() : input;
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(resolve(input) as RequestInfo | URL, init);
  }
} as typeof Request;
const nodeFetch = globalThis.fetch;
globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  nodeFetch(resolve(input) as RequestInfo | URL, init)) as typeof fetch;

// antd's Menu and Layout observe sizes; jsdom has no ResizeObserver.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

// jsdom has no requestIdleCallback: run idle work on the next macrotask, as an idle browser would soon.
if (typeof window !== 'undefined' && typeof window.requestIdleCallback !== 'function') {
  window.requestIdleCallback = ((cb: IdleRequestCallback) =>
    window.setTimeout(
      () => cb({ didTimeout: false, timeRemaining: () => 50 }),
      0,
    )) as typeof window.requestIdleCallback;
  window.cancelIdleCallback = ((id: number) => window.clearTimeout(id)) as typeof window.cancelIdleCallback;
}

// antd's Form batches watchers in a MessageChannel macrotask; jest-fixed-jsdom has none.
if (typeof globalThis.MessageChannel === 'undefined') {
  class Port {
    onmessage: ((event: { data: unknown }) => void) | null = null;
    other: Port | null = null;
    postMessage(data: unknown) {
      setTimeout(() => this.other?.onmessage?.({ data }), 0);
    }
    close() {}
  }
  globalThis.MessageChannel = class {
    port1 = new Port();
    port2 = new Port();
    constructor() {
      this.port1.other = this.port2;
      this.port2.other = this.port1;
    }
  } as unknown as typeof MessageChannel;
}

// antd's CSS-in-JS rules go to a detached element instead of <head>. jsdom matches every rule of every
// sheet in the document against each element on every getComputedStyle call, which antd (table and
// scrollbar measuring, dialogs, form items) and Testing Library's role queries make all the time: with
// antd's few thousand rules in <head> that matching was most of a screen test's time. jsdom does no
// layout, so those rules decide nothing a unit test asserts beyond display and visibility, which antd
// sets inline or by not rendering; the browser tests (Playwright, real CSS) cover how pages look.
jest.mock('@rc-component/util/lib/Dom/dynamicCSS', () => {
  type Options = { attachTo?: Element } & Record<string, unknown>;
  const actual = jest.requireActual('@rc-component/util/lib/Dom/dynamicCSS');
  const sink = document.createElement('div');
  const detached = (option: Options = {}) => ({ ...option, attachTo: option.attachTo ?? sink });
  return {
    ...actual,
    injectCSS: (css: string, option?: Options) => actual.injectCSS(css, detached(option)),
    updateCSS: (css: string, key: string, option?: Options) => actual.updateCSS(css, key, detached(option)),
    removeCSS: (key: string, option?: Options) => actual.removeCSS(key, detached(option)),
  };
});
