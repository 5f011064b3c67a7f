/** What the OpenAPI document says of one api operation, beyond what the route table already knows. */
import type { z } from 'zod';

export interface Operation {
  /** One line, imperative, as a user of the api would say it: "List a company's projects". */
  summary: string;
  /** The group in the docs: Projects, Tasks, Requests, Settings... */
  tag: string;
  /** The query schema the handler parses (the shared contract's), when it reads a query. */
  query?: z.ZodType;
  /** The JSON body schema the handler parses, when it reads one. */
  body?: z.ZodType;
  /**
   * A multipart/form-data body: its text fields' schema (when parsed by one) and its file fields,
   * each with what it holds ("the file to store, at most UPLOAD_MAX_BYTES").
   */
  form?: { fields?: z.ZodType; files: Record<string, string> };
  /** The success answers: status and what it carries ("the created project"); the JSON body's schema is in results/. */
  responses: Record<number, string>;
  /**
   * Error answers beyond the ones every operation of its kind gives (those come from the policy and
   * the method, in document.ts): status and when, e.g. `{ 403: 'signed_url_invalid: ...' }`.
   */
  errors?: Record<number, string>;
  /** Error answers of a page (the sign-in and password pages): the page again, as HTML, with the problem on it. */
  pageErrors?: Record<number, string>;
  /** The content types of a success answer that is not JSON (a download, a page, an event stream). */
  produces?: string[];
}
