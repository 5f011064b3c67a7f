/**
 * The projects remote's calls, injected into the portal's one RTK Query api (endpoint names start with
 * `projects`). The contract (paths, bodies, replies, errors) is shared/src/core/projects. Every
 * mutation invalidates what it changes, so lists, counts and charts follow without a reload.
 */
import { portalApi } from '@portal/shared/web/api';
import type {
  AssignableUser,
  CompanyTaskPage,
  CompanyTasksQuery,
  ControlCreate,
  ControlDetail,
  ControlList,
  ControlUpdate,
  PointOfFocus,
  PointOfFocusInput,
  PointOfFocusList,
  Project,
  ProjectCreate,
  ProjectList,
  ProjectMember,
  ProjectStatus,
  ProjectsQuery,
  ProjectsSummary,
  ProjectUpdate,
  ProjectUserRef,
  RoleAssignment,
  RoleAssignmentInput,
  TaskComment,
  TaskCreate,
  TaskDetail,
  TaskList,
  TasksQuery,
  TaskStatus,
  TaskUpdate,
  UserProject,
} from '@portal/shared/core/projects';

const enc = encodeURIComponent;
const projectUrl = (projectId: string) => `/projects/${enc(projectId)}`;
const taskUrl = (projectId: string, taskId: string) => `${projectUrl(projectId)}/tasks/${enc(taskId)}`;
const controlUrl = (projectId: string, controlId: string) => `${projectUrl(projectId)}/controls/${enc(controlId)}`;

const api = portalApi.enhanceEndpoints({
  addTagTypes: [
    'Projects',
    'ProjectsSummary',
    'Project',
    'ProjectUsers',
    'Tasks',
    'Task',
    'TaskComments',
    'Controls',
    'Control',
    'PointsOfFocus',
  ],
});

/** What a change to a project's tasks makes stale: lists, counts and charts. */
const TASK_CHANGES = ['Tasks', 'Task', 'Projects', 'ProjectsSummary', 'Project', 'Controls', 'Control'] as const;
const CONTROL_CHANGES = ['Controls', 'Control', 'PointsOfFocus', 'Task'] as const;
/** What a change to a project itself makes stale: its work's permissions follow its status (canceled work is frozen). */
const PROJECT_CHANGES = [
  'Project',
  'Projects',
  'ProjectsSummary',
  'Task',
  'Tasks',
  'Control',
  'Controls',
  'PointsOfFocus',
] as const;

export const projectsApi = api.injectEndpoints({
  endpoints: (build) => ({
    // ---- projects
    projectsList: build.query<ProjectList, { companyId: string } & ProjectsQuery>({
      query: ({ companyId, ...params }) => ({ url: `/companies/${enc(companyId)}/projects`, params }),
      providesTags: ['Projects'],
    }),
    projectsSummary: build.query<ProjectsSummary, string>({
      query: (companyId) => `/companies/${enc(companyId)}/projects/summary`,
      providesTags: ['ProjectsSummary'],
    }),
    projectsCreate: build.mutation<Project, { companyId: string; body: ProjectCreate }>({
      query: ({ companyId, body }) => ({ url: `/companies/${enc(companyId)}/projects`, method: 'POST', body }),
      invalidatesTags: ['Projects', 'ProjectsSummary'],
    }),
    projectsGet: build.query<Project, string>({
      query: (projectId) => projectUrl(projectId),
      providesTags: ['Project'],
    }),
    projectsUpdate: build.mutation<Project, { projectId: string; body: ProjectUpdate }>({
      query: ({ projectId, body }) => ({ url: projectUrl(projectId), method: 'PATCH', body }),
      invalidatesTags: [...PROJECT_CHANGES],
    }),
    projectsSetStatus: build.mutation<Project, { projectId: string; status: ProjectStatus }>({
      query: ({ projectId, status }) => ({ url: `${projectUrl(projectId)}/status`, method: 'POST', body: { status } }),
      invalidatesTags: [...PROJECT_CHANGES],
    }),
    /** The practices a project can follow (staff only: the create and edit forms are staff's). */
    projectsPractices: build.query<{ id: string; name: string; status: 'active' | 'retired' }[], void>({
      query: () => '/practices',
      transformResponse: (body: { results: { id: string; name: string; status: 'active' | 'retired' }[] }) =>
        body.results,
    }),
    projectsCompanyTasks: build.query<CompanyTaskPage, { companyId: string } & CompanyTasksQuery>({
      query: ({ companyId, ...params }) => ({ url: `/companies/${enc(companyId)}/tasks`, params }),
      providesTags: ['Tasks'],
    }),

    // ---- roster
    projectsUsers: build.query<ProjectMember[], string>({
      query: (projectId) => `${projectUrl(projectId)}/users`,
      transformResponse: (body: { results: ProjectMember[] }) => body.results,
      providesTags: ['ProjectUsers'],
    }),
    projectsAssignableUsers: build.query<AssignableUser[], string>({
      query: (projectId) => `${projectUrl(projectId)}/assignable-users`,
      transformResponse: (body: { results: AssignableUser[] }) => body.results,
      providesTags: ['ProjectUsers'],
    }),
    /** Whom a task of the project may be given to (the task form's picker; writers only). */
    projectsAssignees: build.query<ProjectUserRef[], string>({
      query: (projectId) => `${projectUrl(projectId)}/assignees`,
      transformResponse: (body: { results: ProjectUserRef[] }) => body.results,
      providesTags: ['ProjectUsers'],
    }),
    /** Who the project's top-level tasks are assigned to (the task list's assignee filter; any reader). */
    projectsTaskAssignees: build.query<ProjectUserRef[], string>({
      query: (projectId) => `${projectUrl(projectId)}/task-assignees`,
      transformResponse: (body: { results: ProjectUserRef[] }) => body.results,
      providesTags: ['Tasks'],
    }),
    projectsOfUser: build.query<UserProject[], string>({
      query: (userId) => `/users/${enc(userId)}/get-projects`,
      transformResponse: (body: { results: UserProject[] }) => body.results,
      providesTags: ['ProjectUsers'],
    }),
    projectsAssignRole: build.mutation<RoleAssignment, { userId: string } & RoleAssignmentInput>({
      query: ({ userId, ...body }) => ({ url: `/projects/roles/${enc(userId)}/assignments`, method: 'PATCH', body }),
      invalidatesTags: ['ProjectUsers', 'Project', 'Projects', 'User'],
    }),

    // ---- tasks
    projectsTasks: build.query<TaskList, { projectId: string } & TasksQuery>({
      query: ({ projectId, ...params }) => ({ url: `${projectUrl(projectId)}/tasks`, params }),
      providesTags: ['Tasks'],
    }),
    projectsTask: build.query<TaskDetail, { projectId: string; taskId: string }>({
      query: ({ projectId, taskId }) => taskUrl(projectId, taskId),
      providesTags: ['Task'],
    }),
    projectsTaskCreate: build.mutation<TaskDetail, { projectId: string; body: TaskCreate }>({
      query: ({ projectId, body }) => ({ url: `${projectUrl(projectId)}/tasks`, method: 'POST', body }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    projectsTaskUpdate: build.mutation<TaskDetail, { projectId: string; taskId: string; body: TaskUpdate }>({
      query: ({ projectId, taskId, body }) => ({ url: taskUrl(projectId, taskId), method: 'PATCH', body }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    projectsTaskDelete: build.mutation<void, { projectId: string; taskId: string }>({
      query: ({ projectId, taskId }) => ({ url: taskUrl(projectId, taskId), method: 'DELETE' }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    projectsTaskSetStatus: build.mutation<TaskDetail, { projectId: string; taskId: string; status: TaskStatus }>({
      query: ({ projectId, taskId, status }) => ({
        url: `${taskUrl(projectId, taskId)}/status`,
        method: 'POST',
        body: { status },
      }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    projectsTaskComments: build.query<TaskComment[], { projectId: string; taskId: string }>({
      query: ({ projectId, taskId }) => `${taskUrl(projectId, taskId)}/comments`,
      transformResponse: (body: { results: TaskComment[] }) => body.results,
      providesTags: ['TaskComments'],
    }),
    projectsTaskComment: build.mutation<TaskComment, { projectId: string; taskId: string; body: string }>({
      query: ({ projectId, taskId, body }) => ({
        url: `${taskUrl(projectId, taskId)}/comments`,
        method: 'POST',
        body: { body },
      }),
      invalidatesTags: ['TaskComments', 'Task', 'Tasks'],
    }),

    // ---- controls and points of focus
    projectsControls: build.query<
      ControlList,
      { projectId: string; page?: number; pageSize?: number; search?: string; sort?: string }
    >({
      query: ({ projectId, ...params }) => ({ url: `${projectUrl(projectId)}/controls`, params }),
      providesTags: ['Controls'],
    }),
    projectsControl: build.query<ControlDetail, { projectId: string; controlId: string }>({
      query: ({ projectId, controlId }) => controlUrl(projectId, controlId),
      providesTags: ['Control'],
    }),
    projectsControlCreate: build.mutation<ControlDetail, { projectId: string; body: ControlCreate }>({
      query: ({ projectId, body }) => ({ url: `${projectUrl(projectId)}/controls`, method: 'POST', body }),
      invalidatesTags: [...CONTROL_CHANGES],
    }),
    projectsControlUpdate: build.mutation<ControlDetail, { projectId: string; controlId: string; body: ControlUpdate }>(
      {
        query: ({ projectId, controlId, body }) => ({ url: controlUrl(projectId, controlId), method: 'PATCH', body }),
        invalidatesTags: [...CONTROL_CHANGES],
      },
    ),
    projectsControlDelete: build.mutation<void, { projectId: string; controlId: string }>({
      query: ({ projectId, controlId }) => ({ url: controlUrl(projectId, controlId), method: 'DELETE' }),
      invalidatesTags: [...CONTROL_CHANGES],
    }),
    projectsControlLinkTask: build.mutation<
      void,
      { projectId: string; controlId: string; taskId: string; linked: boolean }
    >({
      query: ({ projectId, controlId, taskId, linked }) => ({
        url: `${controlUrl(projectId, controlId)}/tasks/${enc(taskId)}`,
        method: linked ? 'PUT' : 'DELETE',
      }),
      invalidatesTags: [...CONTROL_CHANGES, 'Tasks'],
    }),
    projectsPointsOfFocus: build.query<
      PointOfFocusList,
      { projectId: string; page?: number; pageSize?: number; controlId?: string; search?: string }
    >({
      query: ({ projectId, ...params }) => ({ url: `${projectUrl(projectId)}/points-of-focus`, params }),
      providesTags: ['PointsOfFocus'],
    }),
    projectsPointOfFocusCreate: build.mutation<
      PointOfFocus,
      { projectId: string; controlId: string; body: PointOfFocusInput }
    >({
      query: ({ projectId, controlId, body }) => ({
        url: `${controlUrl(projectId, controlId)}/points-of-focus`,
        method: 'POST',
        body,
      }),
      invalidatesTags: [...CONTROL_CHANGES],
    }),
    projectsPointOfFocusUpdate: build.mutation<
      PointOfFocus,
      { projectId: string; pointId: string; body: Partial<PointOfFocusInput> }
    >({
      query: ({ projectId, pointId, body }) => ({
        url: `${projectUrl(projectId)}/points-of-focus/${enc(pointId)}`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: [...CONTROL_CHANGES],
    }),
    projectsPointOfFocusDelete: build.mutation<void, { projectId: string; pointId: string }>({
      query: ({ projectId, pointId }) => ({
        url: `${projectUrl(projectId)}/points-of-focus/${enc(pointId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: [...CONTROL_CHANGES],
    }),
  }),
});
