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
  Routes,
  matchPath,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router-dom';
export type { NavigateFunction } from 'react-router-dom';
