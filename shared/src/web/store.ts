/**
 * Redux Toolkit, RTK Query and react-redux, re-exported from one place. This module is part of the
 * @portal/shared singleton (provided by the shell): one react-redux context and one RTK across the
 * federation, tree-shaken to what the portal uses. Import them from here, never directly (lint
 * enforces it).
 */
export {
  combineSlices,
  configureStore,
  createAsyncThunk,
  createSelector,
  createSlice,
  isRejectedWithValue,
} from '@reduxjs/toolkit';
export type { Middleware, PayloadAction, Reducer } from '@reduxjs/toolkit';
export { createApi, fetchBaseQuery, skipToken } from '@reduxjs/toolkit/query/react';
export type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
export { Provider, useDispatch, useSelector, useStore } from 'react-redux';
