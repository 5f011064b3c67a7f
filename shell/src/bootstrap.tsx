import { createRoot } from 'react-dom/client';
import { PortalApp } from './app/portal-app';
import { initFederation } from './federation/remotes';
import { createPortalStore } from './store/store';

initFederation();
const store = createPortalStore();
createRoot(document.getElementById('root')!).render(<PortalApp store={store} />);
