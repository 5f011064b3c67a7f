import type { User } from '@portal/shared/core/schemas';
import { sessionActions } from '@portal/shared/web/session';
import { createPortalStore } from '../store/store';
import { preloadUngatedRemote } from './remotes';

const user = { id: 'u1', firstName: 'Ann', lastName: 'Lee' } as User;

describe('preloadUngatedRemote', () => {
  it('starts loading the page’s ungated remote once the user is known, and only once', () => {
    const store = createPortalStore();
    const load = jest.fn(() => Promise.resolve());
    preloadUngatedRemote(store, 'mfe-settings', load);
    expect(load).not.toHaveBeenCalled(); // not for a browser that is not signed in

    store.dispatch(sessionActions.userLoaded(user));
    expect(load).toHaveBeenCalledWith('mfe-settings');
    store.dispatch(sessionActions.themeSet('dark'));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads at once when the user is already known, and nothing on a page of a gated remote', () => {
    const store = createPortalStore();
    store.dispatch(sessionActions.userLoaded(user));
    const load = jest.fn(() => Promise.reject(new Error('offline'))); // a failed preload is left to the mount
    preloadUngatedRemote(store, 'mfe-settings', load);
    expect(load).toHaveBeenCalledTimes(1);

    const none = jest.fn(() => Promise.resolve());
    preloadUngatedRemote(store, null, none);
    expect(none).not.toHaveBeenCalled();
  });
});
