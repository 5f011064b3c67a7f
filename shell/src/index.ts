import { applyCspNonce } from './csp-nonce';

// Style tags added from here on carry the page's CSP nonce (src/csp-nonce.ts).
applyCspNonce();
// The async boundary lets the federation runtime negotiate shared singletons before any of them runs.
import('./bootstrap');
