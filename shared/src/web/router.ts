/**
 * The portal's router, re-exported from one place. Like the UI kit, this module is part of the
 * @portal/shared singleton: one react-router instance (one routing context) across the federation,
 * tree-shaken to what the portal uses instead of shipping all of react-router (~60 KB gzip) on the
 * first page. Import routing from here, never from react-router directly (lint enforces it).
 */
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Router,
  Routes,
  UNSAFE_createBrowserHistory,
  createPath,
  matchPath,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router-dom';
// Router and the browser history are what BrowserRouter is built of (no extra bytes): the shell's
// guarded router uses them; a data router (createBrowserRouter) would add ~16 KB gzip to the first page.
export type { Location, NavigateFunction, NavigationType, Navigator, Path, To } from 'react-router-dom';
