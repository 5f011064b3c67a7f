import { PRACTICE_STATUSES, type PracticeStatus } from '@portal/shared/core/practices';

export type PracticeStatusFilter = PracticeStatus | 'all';

/** All by default: retired practices stay visible with their tag (there are few practices). */
export const DEFAULT_STATUS: PracticeStatusFilter = 'all';
export const PAGE_SIZE = 25;

export interface PracticesListState {
  status: PracticeStatusFilter;
  search: string;
  page: number;
}

/** The list's state from the address (`status`, `search`, `page`); unknown values fall back to the defaults. */
export function practicesListFrom(params: URLSearchParams): PracticesListState {
  const raw = params.get('status');
  const status: PracticeStatusFilter =
    raw === 'all' || (PRACTICE_STATUSES as readonly string[]).includes(raw ?? '')
      ? (raw as PracticeStatusFilter)
      : DEFAULT_STATUS;
  const page = Number(params.get('page'));
  return {
    status,
    search: (params.get('search') ?? '').trim().slice(0, 100),
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}
