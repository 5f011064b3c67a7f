import { createRoot } from 'react-dom/client';
import { PortalApp } from './app/portal-app';
import { initFederation, loadRemotesManifest } from './federation/remotes';
import { createPortalStore } from './store/store';

initFederation();
// The remotes manifest is read at start, so mounting the first remote does not wait for it.
loadRemotesManifest().catch(() => undefined);
createRoot(document.getElementById('root')!).render(<PortalApp store={createPortalStore()} />);
