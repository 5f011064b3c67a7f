/**
 * Feature flag values for the shell and the remotes. The shell's flag client (OpenFeature, loaded
 * lazily) writes them into the `featureFlags` slice; everyone reads them with `useFeatureFlag`.
 * Remotes never import the OpenFeature SDK: this hook is all they need.
 */
import { createSlice, useSelector, type PayloadAction } from '@portal/shared/web/store';
import type { FlagValue } from '@portal/shared/core/feature-flags';

/** The flag client's status: initializing, then ready or failed ('idle' before sign-in and after logout). */
export type FeatureFlagsStatus = 'idle' | 'initializing' | 'ready' | 'failed';

export interface FeatureFlagsState {
  status: FeatureFlagsStatus;
  values: Record<string, FlagValue>;
}

export const initialFeatureFlagsState: FeatureFlagsState = { status: 'idle', values: {} };

export const featureFlagsSlice = createSlice({
  name: 'featureFlags',
  initialState: initialFeatureFlagsState,
  reducers: {
    flagsInitializing(state) {
      state.status = 'initializing';
    },
    /** The provider is ready (again) with these values. */
    flagsReady(state, action: PayloadAction<Record<string, FlagValue>>) {
      state.status = 'ready';
      replaceValues(state, action.payload);
    },
    /** Values changed (stream or context change); the status stays as it is. */
    flagsChanged(state, action: PayloadAction<Record<string, FlagValue>>) {
      replaceValues(state, action.payload);
    },
    /** The flag service failed: values stay as they were (the defaults, on a first failure). */
    flagsFailed(state) {
      state.status = 'failed';
    },
    flagsCleared() {
      return initialFeatureFlagsState;
    },
  },
});

export const featureFlagsActions = featureFlagsSlice.actions;

/** Unchanged values keep their identity, so a component reading an object flag re-renders only when it changes. */
function replaceValues(state: FeatureFlagsState, next: Record<string, FlagValue>): void {
  for (const key of Object.keys(state.values)) if (!(key in next)) delete state.values[key];
  for (const [key, value] of Object.entries(next)) {
    if (JSON.stringify(state.values[key]) !== JSON.stringify(value)) state.values[key] = value;
  }
}

/** The slice is injected by the shell's flag client when it starts; until then every flag is its default. */
type FlagsRoot = { featureFlags?: FeatureFlagsState };

function sameKind(value: unknown, defaultValue: unknown): boolean {
  if (Array.isArray(defaultValue)) return Array.isArray(value);
  return typeof value === typeof defaultValue && value !== null;
}

/**
 * A flag's value for the signed-in user, or `defaultValue` while flags are loading, when the flag
 * service failed, when the flag does not exist or when its value is of another type. Re-renders
 * when the value changes (flags update live).
 */
export function useFeatureFlag(key: string, defaultValue: boolean): boolean;
export function useFeatureFlag(key: string, defaultValue: string): string;
export function useFeatureFlag(key: string, defaultValue: number): number;
export function useFeatureFlag<T extends FlagValue>(key: string, defaultValue: T): T;
export function useFeatureFlag(key: string, defaultValue: FlagValue): FlagValue {
  const value = useSelector((s: FlagsRoot) => s.featureFlags?.values[key]);
  return value !== undefined && sameKind(value, defaultValue) ? value : defaultValue;
}

export function useFeatureFlagsStatus(): FeatureFlagsStatus {
  return useSelector((s: FlagsRoot) => s.featureFlags?.status ?? 'idle');
}
