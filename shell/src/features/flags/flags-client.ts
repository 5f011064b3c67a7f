/**
 * The flag client: OpenFeature with our provider, started once the user is known, its values copied
 * into the `featureFlags` slice for `useFeatureFlag`. Loaded with a dynamic import (never on the
 * first page). A failure is logged and the portal goes on with default values.
 */
import {
  NOOP_PROVIDER,
  OpenFeature,
  ProviderEvents,
  type EvaluationContext,
  type EventDetails,
} from '@openfeature/web-sdk';
import { featureFlagContextOf } from '@portal/shared/core/feature-flags';
import type { User } from '@portal/shared/core/schemas';
import { featureFlagsActions, featureFlagsSlice } from '@portal/shared/web/flags';
import { rootReducer, type PortalDispatch } from '../../store/store';
import { PortalFlagsProvider, PROVIDER_NAME, type PortalFlagsProviderOptions } from './portal-flags-provider';

export type FlagUser = Pick<User, 'id' | 'firstName' | 'lastName' | 'email' | 'isTevora'>;

export interface FeatureFlagsHandle {
  /** New details of the same user: the provider refetches for the new context. */
  setUser(user: FlagUser): void;
  /** Logout or unmount: stops the stream and forgets the values and the context. */
  stop(): void;
}

/** The flag evaluation context, with OpenFeature's name for the key. */
export function flagContextOf(user: FlagUser): EvaluationContext {
  const context = featureFlagContextOf(user);
  return { targetingKey: context.key, ...context };
}

export function startFeatureFlags(
  dispatch: PortalDispatch,
  user: FlagUser,
  options: PortalFlagsProviderOptions = {},
): FeatureFlagsHandle {
  featureFlagsSlice.injectInto(rootReducer);
  const provider = new PortalFlagsProvider(options);
  let stopped = false;
  const ours = (details?: EventDetails) => !stopped && details?.providerName === PROVIDER_NAME;

  const onReady = (details?: EventDetails) => {
    if (ours(details)) dispatch(featureFlagsActions.flagsReady(provider.values()));
  };
  const onChanged = (details?: EventDetails) => {
    if (ours(details)) dispatch(featureFlagsActions.flagsChanged(provider.values()));
  };
  const onError = (details?: EventDetails) => {
    if (ours(details)) dispatch(featureFlagsActions.flagsFailed());
  };

  dispatch(featureFlagsActions.flagsInitializing());
  // Handlers after the provider is set: the no-op provider it replaces is "ready" and would answer at once.
  OpenFeature.setProviderAndWait(provider, flagContextOf(user)).catch((error: unknown) => {
    if (!stopped)
      console.error('Feature flags: the flag service did not start; the portal continues with default values.', error);
  });
  OpenFeature.addHandler(ProviderEvents.Ready, onReady);
  OpenFeature.addHandler(ProviderEvents.ConfigurationChanged, onChanged);
  OpenFeature.addHandler(ProviderEvents.ContextChanged, onChanged);
  OpenFeature.addHandler(ProviderEvents.Error, onError);

  return {
    setUser(next) {
      if (stopped) return;
      OpenFeature.setContext(flagContextOf(next)).catch((error: unknown) =>
        console.error('Feature flags: the new user context was not applied.', error),
      );
    },
    stop() {
      if (stopped) return;
      stopped = true;
      OpenFeature.removeHandler(ProviderEvents.Ready, onReady);
      OpenFeature.removeHandler(ProviderEvents.ConfigurationChanged, onChanged);
      OpenFeature.removeHandler(ProviderEvents.ContextChanged, onChanged);
      OpenFeature.removeHandler(ProviderEvents.Error, onError);
      // Replacing the provider closes ours (stream included); a later start sets a new one.
      OpenFeature.setProvider(NOOP_PROVIDER);
      void OpenFeature.clearContext();
      dispatch(featureFlagsActions.flagsCleared());
    },
  };
}
