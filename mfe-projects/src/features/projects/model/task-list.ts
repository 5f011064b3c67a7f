/**
 * The Tasks tab's address: page, filters and sort in the project page's query (the
 * address is the state). Unknown values are ignored, as if absent.
 */
import {
  pageParam,
  TASK_DUE_FILTERS,
  TASK_STATUSES,
  type TaskDueFilter,
  type TasksQuery,
  type TaskStatus,
} from '@portal/shared/core/projects';

export const TASKS_PAGE_SIZE = 25;

export const TASK_PARAMS = {
  page: 'tasksPage',
  status: 'taskStatus',
  assignee: 'taskAssignee',
  due: 'taskDue',
  search: 'taskSearch',
  sort: 'taskSort',
} as const;

/** Columns the api sorts by (tasksQuerySchema.sort), `-` first for descending. */
export const TASK_SORT_KEYS = ['referenceId', 'title', 'status', 'dueDate', 'createdAt'] as const;
export type TaskSortKey = (typeof TASK_SORT_KEYS)[number];
export type TaskSort = TaskSortKey | `-${TaskSortKey}`;

export const TASK_DUE_LABELS: Record<TaskDueFilter, string> = {
  overdue: 'Overdue',
  week: 'Due this week',
  none: 'No due date',
};

/** The assignee filter's value for tasks nobody is assigned to. */
export const UNASSIGNED = 'none';

export interface TaskListState {
  page: number;
  status: TaskStatus[];
  assigneeId?: string;
  due?: TaskDueFilter;
  search?: string;
  sort?: TaskSort;
}

const isOneOf = <T extends string>(list: readonly T[], value: string | null | undefined): value is T =>
  value !== null && value !== undefined && (list as readonly string[]).includes(value);

export function taskListState(params: URLSearchParams): TaskListState {
  const status = (params.get(TASK_PARAMS.status) ?? '')
    .split(',')
    .filter((s): s is TaskStatus => isOneOf(TASK_STATUSES, s));
  const due = params.get(TASK_PARAMS.due);
  const sort = params.get(TASK_PARAMS.sort);
  return {
    page: pageParam(params, TASK_PARAMS.page),
    status: [...new Set(status)],
    assigneeId: params.get(TASK_PARAMS.assignee) || undefined,
    due: isOneOf(TASK_DUE_FILTERS, due) ? due : undefined,
    search: params.get(TASK_PARAMS.search)?.trim() || undefined,
    sort: isOneOf(TASK_SORT_KEYS, sort?.replace(/^-/, '')) ? (sort as TaskSort) : undefined,
  };
}

/** The GET /projects/:id/tasks query of a state. */
export function tasksQuery(state: TaskListState): TasksQuery {
  return {
    page: state.page,
    pageSize: TASKS_PAGE_SIZE,
    status: state.status.length ? state.status : undefined,
    assigneeId: state.assigneeId,
    due: state.due,
    search: state.search,
    sort: state.sort,
  };
}

export function hasTaskFilters(state: TaskListState): boolean {
  return state.status.length > 0 || !!state.assigneeId || !!state.due || !!state.search;
}
