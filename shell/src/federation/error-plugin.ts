import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

export class RemoteUnavailableError extends Error {
  constructor(
    readonly remoteId: string,
    cause: unknown,
  ) {
    super(`The module "${remoteId}" could not be loaded`);
    this.name = 'RemoteUnavailableError';
    this.cause = cause;
  }
}

/**
 * The second failure layer: when a remote cannot be loaded (after the retry plugin gave up), return a
 * fallback module instead of an unhandled rejection. Its component throws a RemoteUnavailableError while
 * rendering, so the remote's error boundary (the third layer) shows the fallback with Retry.
 */
export function remoteFallbackPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'portal-remote-fallback',
    errorLoadRemote({ id, error, lifecycle }) {
      if (lifecycle !== 'onLoad') return undefined;
      console.warn(`[portal] remote ${id} failed to load`, error);
      const failure = new RemoteUnavailableError(id, error);
      const Unavailable = () => {
        throw failure;
      };
      return { __esModule: true, default: Unavailable };
    },
  };
}
