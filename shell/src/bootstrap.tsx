import { createRoot } from 'react-dom/client';
import { PortalApp } from './app/portal-app';
import { ungatedRemoteFor } from './app/navigation';
import { initFederation, loadRemotesManifest, preloadUngatedRemote } from './federation/remotes';
import { createPortalStore } from './store/store';

initFederation();
// The remotes manifest is read at start, so mounting the first remote does not wait for it.
loadRemotesManifest().catch(() => undefined);
const store = createPortalStore();
preloadUngatedRemote(store, ungatedRemoteFor(window.location.pathname));
createRoot(document.getElementById('root')!).render(<PortalApp store={store} />);
