import { act, render, screen } from '@testing-library/react';
import { combineSlices, configureStore, Provider } from '@portal/shared/web/store';
import { renderWithProviders } from '@portal/shared/testing';
import { featureFlagsActions, featureFlagsSlice, useFeatureFlag, useFeatureFlagsStatus } from './flags';

function Probe() {
  const help = useFeatureFlag('header-help-link', false);
  const url = useFeatureFlag('help-url', 'default-url');
  const limits = useFeatureFlag<{ max: number }>('limits', { max: 1 });
  return (
    <p>
      {useFeatureFlagsStatus()} help={String(help)} url={url} max={limits.max}
    </p>
  );
}

describe('useFeatureFlag', () => {
  it('serves defaults while the slice is not there (a remote before the shell started flags)', () => {
    renderWithProviders(<Probe />);
    expect(screen.getByText('idle help=false url=default-url max=1')).toBeInTheDocument();
  });

  it('reads values from the slice, re-renders on change, and falls back to the default for another type', () => {
    const store = configureStore({ reducer: combineSlices(featureFlagsSlice) });
    render(
      <Provider store={store}>
        <Probe />
      </Provider>,
    );
    act(() => {
      store.dispatch(featureFlagsActions.flagsInitializing());
    });
    expect(screen.getByText('initializing help=false url=default-url max=1')).toBeInTheDocument();
    act(() => {
      store.dispatch(featureFlagsActions.flagsReady({ 'header-help-link': true, 'help-url': 42, limits: { max: 3 } }));
    });
    expect(screen.getByText('ready help=true url=default-url max=3')).toBeInTheDocument();
    act(() => {
      store.dispatch(featureFlagsActions.flagsFailed());
    });
    expect(screen.getByText('failed help=true url=default-url max=3')).toBeInTheDocument();
    act(() => {
      store.dispatch(featureFlagsActions.flagsCleared());
    });
    expect(screen.getByText('idle help=false url=default-url max=1')).toBeInTheDocument();
  });

  it('keeps unchanged values identical and drops removed ones', () => {
    const store = configureStore({ reducer: combineSlices(featureFlagsSlice) });
    store.dispatch(featureFlagsActions.flagsReady({ limits: { max: 3 }, gone: true }));
    const before = store.getState().featureFlags.values.limits;
    store.dispatch(featureFlagsActions.flagsChanged({ limits: { max: 3 }, added: 'x' }));
    expect(store.getState().featureFlags.values.limits).toBe(before);
    expect(store.getState().featureFlags.values).toEqual({ limits: { max: 3 }, added: 'x' });
    expect(store.getState().featureFlags.status).toBe('ready');
  });
});
