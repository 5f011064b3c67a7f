/**
 * The OpenFeature provider of the portal (web SDK, static context): flags are evaluated by our api
 * for the signed-in user (GET /api/v1/feature-flags) and kept live by its event stream. Evaluations
 * read the cache; they never wait for the network.
 */
import {
  ErrorCode,
  OpenFeatureEventEmitter,
  ProviderEvents,
  StandardResolutionReasons,
  TargetingKeyMissingError,
  type EvaluationContext,
  type JsonValue,
  type Provider,
  type ResolutionDetails,
} from '@openfeature/web-sdk';
import type { FeatureFlagsPayload, FlagValue } from '@portal/shared/core/feature-flags';
import { browserEventSource, FlagStream, type EventSourceFactory } from './flag-stream';

export const FLAGS_URL = '/api/v1/feature-flags';
export const FLAGS_STREAM_URL = '/api/v1/feature-flags/stream';
export const PROVIDER_NAME = 'portal-api';

export interface PortalFlagsProviderOptions {
  fetch?: typeof fetch;
  /** null: no live updates (a browser without EventSource). */
  eventSource?: EventSourceFactory | null;
  random?: () => number;
  logger?: Pick<Console, 'warn' | 'error'>;
}

/** The evaluation context must have a key or be anonymous. */
export function assertFlagContext(context: EvaluationContext | undefined): void {
  const key = context?.targetingKey ?? context?.key;
  if ((typeof key !== 'string' || key === '') && context?.anonymous !== true) {
    throw new TargetingKeyMissingError('The feature-flag context needs a key (the user id) or anonymous: true.');
  }
}

/** A stream or api reply we can use: anything else is logged and ignored. */
export function isFlagsPayload(data: unknown): data is FeatureFlagsPayload {
  if (typeof data !== 'object' || data === null) return false;
  const { flags, version } = data as Partial<FeatureFlagsPayload>;
  if (typeof version !== 'string' || typeof flags !== 'object' || flags === null || Array.isArray(flags)) return false;
  return Object.values(flags).every(
    (f) =>
      typeof f === 'object' && f !== null && f.value !== undefined && f.value !== null && typeof f.reason === 'string',
  );
}

type Kind = 'boolean' | 'string' | 'number' | 'object';
const kindOf = (value: FlagValue): Kind => (typeof value === 'object' ? 'object' : (typeof value as Kind));

/** Keys whose evaluation differs between two payloads (added, removed or changed). */
export function changedFlagKeys(before: FeatureFlagsPayload['flags'], after: FeatureFlagsPayload['flags']): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

export class PortalFlagsProvider implements Provider {
  readonly metadata = { name: PROVIDER_NAME } as const;
  readonly runsOn = 'client' as const;
  readonly events = new OpenFeatureEventEmitter();

  readonly #fetch: typeof fetch;
  readonly #logger: Pick<Console, 'warn' | 'error'>;
  readonly #stream: FlagStream | null;
  #cache: FeatureFlagsPayload | null = null;
  /** The last load failed (the SDK holds the provider in ERROR): the next stream values make it ready. */
  #failed = false;
  /** Closed (replaced or logged out): a load still in flight must not reopen the stream. */
  #closed = false;

  constructor(options: PortalFlagsProviderOptions = {}) {
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#logger = options.logger ?? console;
    const open = options.eventSource === undefined ? browserEventSource() : options.eventSource;
    this.#stream = open
      ? new FlagStream({
          url: FLAGS_STREAM_URL,
          open,
          random: options.random,
          logger: this.#logger,
          onFlags: (data) => this.#onStreamFlags(data),
        })
      : null;
  }

  /** Every flag's value, as the Redux slice keeps them. */
  values(): Record<string, FlagValue> {
    const out: Record<string, FlagValue> = {};
    for (const [key, flag] of Object.entries(this.#cache?.flags ?? {})) out[key] = flag.value;
    return out;
  }

  async initialize(context?: EvaluationContext): Promise<void> {
    assertFlagContext(context);
    this.#closed = false;
    try {
      await this.#refresh();
    } finally {
      // Also after a failed load: the stream's first event carries every flag, so the provider
      // recovers (and turns ready) as soon as the api answers again.
      if (!this.#closed) this.#stream?.start();
    }
  }

  /** A new user (or new user details): fetch their values, and follow the stream of the new session. */
  async onContextChange(_oldContext: EvaluationContext, newContext: EvaluationContext): Promise<void> {
    assertFlagContext(newContext);
    this.#stream?.stop();
    try {
      await this.#refresh();
    } finally {
      if (!this.#closed) this.#stream?.start();
    }
  }

  async onClose(): Promise<void> {
    this.#closed = true;
    this.#stream?.stop();
    this.#cache = null;
    this.#failed = false;
  }

  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean): ResolutionDetails<boolean> {
    return this.#resolve(flagKey, defaultValue, 'boolean');
  }

  resolveStringEvaluation(flagKey: string, defaultValue: string): ResolutionDetails<string> {
    return this.#resolve(flagKey, defaultValue, 'string');
  }

  resolveNumberEvaluation(flagKey: string, defaultValue: number): ResolutionDetails<number> {
    return this.#resolve(flagKey, defaultValue, 'number');
  }

  resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T): ResolutionDetails<T> {
    return this.#resolve(flagKey, defaultValue, 'object');
  }

  #resolve<T>(flagKey: string, defaultValue: T, kind: Kind): ResolutionDetails<T> {
    if (!this.#cache)
      return { value: defaultValue, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.PROVIDER_NOT_READY };
    const flag = this.#cache.flags[flagKey];
    if (!flag) {
      return {
        value: defaultValue,
        reason: StandardResolutionReasons.ERROR,
        errorCode: ErrorCode.FLAG_NOT_FOUND,
        errorMessage: `No flag ${flagKey}`,
      };
    }
    if (kindOf(flag.value) !== kind) {
      return {
        value: defaultValue,
        reason: StandardResolutionReasons.ERROR,
        errorCode: ErrorCode.TYPE_MISMATCH,
        errorMessage: `${flagKey} is not a ${kind}`,
      };
    }
    return {
      value: flag.value as T,
      reason: flag.reason,
      ...(flag.variant !== undefined ? { variant: flag.variant } : {}),
    };
  }

  async #refresh(): Promise<void> {
    try {
      const payload = await this.#load();
      if (this.#closed) return;
      this.#cache = payload;
      this.#failed = false;
    } catch (error) {
      this.#failed = true;
      throw error;
    }
  }

  async #load(): Promise<FeatureFlagsPayload> {
    const res = await this.#fetch(FLAGS_URL, {
      credentials: 'include',
      headers: { Accept: 'application/json', 'X-Portal-Client': 'web' },
    });
    if (!res.ok) throw new Error(`GET ${FLAGS_URL} answered ${res.status}`);
    const body: unknown = await res.json();
    if (!isFlagsPayload(body)) throw new Error(`GET ${FLAGS_URL} answered an unexpected shape`);
    return body;
  }

  #onStreamFlags(data: unknown): void {
    if (!isFlagsPayload(data)) {
      this.#logger.error('Feature flags: a stream message had an unexpected shape; it was ignored.');
      return;
    }
    const before = this.#cache;
    this.#cache = data;
    if (this.#failed) {
      // Values again after a failed load: the SDK moves from ERROR to READY.
      this.#failed = false;
      this.events.emit(ProviderEvents.Ready);
      return;
    }
    const flagsChanged = changedFlagKeys(before?.flags ?? {}, data.flags);
    if (flagsChanged.length > 0) this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged });
  }
}
