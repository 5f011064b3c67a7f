/**
 * How an api operation is described, once: method, path, who may call it (the policy), what it
 * reads (path parameters, query, JSON body or multipart form) and what it answers, as zod schemas.
 * Each area's `api.ts` (for example `core/projects/api.ts`) lists its operations with
 * `defineOperation`; the api registers every route from its operation (validation and response
 * serialization compiled by fastify, the OpenAPI document generated from the registered routes) and
 * the web infers its types from the same schemas. Framework-free: nothing here imports fastify.
 */
import type { z } from 'zod';
import type { ModuleName, SettingsPermissions } from './modules';

/** A settings permission (docs/authorization.md), as `group.name`. */
export type SettingsPermissionName =
  `users.${keyof SettingsPermissions['users']}` | `company.${keyof SettingsPermissions['company']}`;

export type ProjectAccessLevel = 'read' | 'write' | 'manage';

/**
 * Who may call an operation (enforced by the api before it reads the input: api/src/plugins/app/policies.ts):
 * - `public`, `signedIn`, `staff`, `staffAdmin`;
 * - `{ company: 'member', module? }`: the company of `params.id` is visible to the caller (else 404)
 *   and, when given, the module is on for the caller there (else 403);
 * - `{ company: 'settings', permission }`: visible company and the caller holds that settings permission there (else 403);
 * - `{ targetUser: permission }`: the user of `params.id` shares a company with the caller, or the caller
 *   is staff (else 404), and the caller holds the permission in one of the target's companies (else 403);
 *   a staff target under a company permission needs `users.editTevoraAdmins` (staff admins); with
 *   `account: true` (a change to the account itself, which every company of the user sees) a client
 *   caller must hold the permission in every company the target belongs to (else 403);
 * - `{ staff: permission }`: the caller is staff and holds the permission (staff roles are global; else 403);
 * - `{ project: 'read' | 'write' | 'manage' }`: the project of `params.id` is visible to the caller
 *   (its company is visible and, for auditors, they hold a role on it; else 404 `project_not_found`),
 *   the projects module is on for the caller there (else 403), and for `write` the caller is staff
 *   but not an auditor or holds a role on the project, for `manage` staff but not an auditor
 *   (else 403 `user_can_not_update_project`).
 * - `{ request: 'read' | 'manage' }`: the evidence request of `params.id` is visible to the caller
 *   (else 404 `request_not_found`), the requests module is on for the caller in its company (else 403
 *   `module_access_denied`), and for `manage` the caller is staff but not an auditor (else 403
 *   `forbidden`). Finer rules (respond, uploader) are the operation's own.
 */
export type Policy =
  | 'public'
  | 'signedIn'
  | 'staff'
  | 'staffAdmin'
  | { company: 'member'; module?: ModuleName }
  | { company: 'settings'; permission: SettingsPermissionName }
  | { targetUser: SettingsPermissionName; account?: true }
  | { staff: SettingsPermissionName }
  | { project: ProjectAccessLevel }
  | { request: 'read' | 'manage' };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One api operation. */
export interface Operation {
  method: HttpMethod;
  /** The path as fastify writes it: `/api/v1/projects/:id/tasks/:taskId`. */
  url: string;
  /** One line, imperative, as a user of the api would say it: "List a project's tasks". */
  summary: string;
  /** The group in the docs: Projects, Tasks, Requests, Settings... */
  tag: string;
  policy: Policy;
  /**
   * The path parameters, when a rule beyond "present, at most 100 characters, no NUL" applies
   * (the api builds that one from the path for every `:name` not given here).
   */
  params?: z.ZodObject;
  /** The query. `key[]=a&key[]=b`, `key=a&key=b` and any mix reach it as one list under `key`. */
  query?: z.ZodType;
  /** The JSON body (a form body on the sign-in pages). */
  body?: z.ZodType;
  /**
   * A multipart/form-data body, read as a stream by the handler: its text fields' schema (checked
   * when the stream is read) and its file fields, each with what it holds.
   */
  form?: { fields?: z.ZodType; files: Record<string, string> };
  /** The answers: status and what it carries ("the created project"). */
  responses: Record<number, string>;
  /** The JSON body of the success answer (2xx), when it has one. */
  result?: z.ZodType;
  /** Error answers beyond the ones the policy and the method imply: status and when. */
  errors?: Record<number, string>;
  /** Error answers of a page (sign-in, password pages): the page again, as HTML, with the problem on it. */
  pageErrors?: Record<number, string>;
  /** The content types of a success answer that is not JSON (a download, a page, an event stream). */
  produces?: readonly string[];
}

/** An operation, as written (literal types kept, so the api and the web can infer from it). */
export function defineOperation<const O extends Operation>(operation: O): O {
  return operation;
}

/** The names of a path's parameters: `ParamNames<'/a/:id/b/:taskId'>` is `'id' | 'taskId'`. */
export type ParamNames<Url extends string> = Url extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Url extends `${string}:${infer Name}`
    ? Name
    : never;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The path parameters an operation's handler receives. */
export type ParamsOf<O extends Operation> = { [K in ParamNames<O['url']>]: string } & (O['params'] extends z.ZodObject
  ? z.output<O['params']>
  : unknown);
/** The query an operation's handler receives (parsed: defaults applied). */
export type QueryOf<O extends Operation> = Parsed<O['query']>;
/** The JSON body an operation's handler receives (parsed). */
export type BodyOf<O extends Operation> = Parsed<O['body']>;
/** The JSON answer of an operation, as the web receives it. */
export type ResultOf<O extends Operation> = O['result'] extends z.ZodType ? z.output<O['result']> : void;
/** What a caller sends as the query (before defaults). */
export type QueryInputOf<O extends Operation> = O['query'] extends z.ZodType ? z.input<O['query']> : void;
/** What a caller sends as the body (before defaults). */
export type BodyInputOf<O extends Operation> = O['body'] extends z.ZodType ? z.input<O['body']> : void;
