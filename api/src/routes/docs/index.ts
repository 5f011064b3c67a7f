/**
 * The api's documentation for signed-in staff: `/api/docs` (a page, readable without JavaScript) and
 * `/api/docs/openapi.json` (the OpenAPI 3.1 document it is made from). Built once, from the routes
 * the app registered, when first asked for.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getAuth } from '../../plugins/auth';
import { escapeHtml } from '../../lib/html';
import { HttpError } from '../../lib/http-error';
import { openApiDocument, type OpenApiDocument, type OpenApiOperation } from '../../openapi/document';
import { OPERATIONS } from '../../openapi/operations';
import { LOGIN_PATH } from '../auth/login-page';
import { TO_URL_COOKIE } from '../auth/index';

export const DOCS_PATH = '/api/docs';

const STYLE = `
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #f6f7f9; }
  header, main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem; }
  h1 { margin: .5rem 0; font-size: 1.5rem; } h2 { margin: 1.5rem 0 .5rem; font-size: 1.2rem; }
  details { background: #fff; border: 1px solid #d9dde3; border-radius: 6px; margin: .35rem 0; }
  summary { cursor: pointer; padding: .5rem .75rem; display: flex; gap: .75rem; align-items: baseline; }
  summary:focus-visible { outline: 2px solid #1f5fbf; outline-offset: 2px; }
  .method { font: 600 12px/1.8 ui-monospace, monospace; min-width: 4.5rem; text-align: center; border-radius: 4px; color: #fff; background: #3d4a5c; }
  .get { background: #1d6b3a; } .post { background: #1f4f9f; } .put, .patch { background: #7a4d00; } .delete { background: #a4231b; }
  code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
  pre { background: #f3f5f8; padding: .75rem; overflow: auto; max-height: 24rem; border-radius: 4px; }
  .body { padding: 0 1rem 1rem; } table { border-collapse: collapse; } th, td { text-align: left; padding: .2rem .75rem .2rem 0; vertical-align: top; }
  a { color: #1f5fbf; }`;

function operationHtml(method: string, path: string, op: OpenApiOperation): string {
  const parameters = op.parameters.length
    ? `<h3>Parameters</h3><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Schema</th></tr></thead><tbody>${op.parameters
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escapeHtml(JSON.stringify(p.schema))}</code></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const body = op.requestBody
    ? `<h3>Body</h3>${Object.entries(op.requestBody.content)
        .map(
          ([type, c]) =>
            `<p><code>${escapeHtml(type)}</code></p><pre>${escapeHtml(JSON.stringify(c.schema, null, 2))}</pre>`,
        )
        .join('')}`
    : '';
  const responses = `<h3>Answers</h3><table><tbody>${Object.entries(op.responses)
    .map(
      ([status, r]) =>
        `<tr><td><code>${status}</code></td><td>${escapeHtml(r.description)}${r.content ? ` <code>${escapeHtml(Object.keys(r.content).join(', '))}</code>` : ''}</td></tr>`,
    )
    .join('')}</tbody></table>`;
  return `<details><summary><span class="method ${method}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code><span>${escapeHtml(op.summary)}</span></summary><div class="body"><p>${escapeHtml(op.description)}</p>${parameters}${body}${responses}</div></details>`;
}

export function docsPage(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  let count = 0;
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags[0] ?? 'Other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationHtml(method, path, op));
      count += 1;
    }
  }
  const tags = [...byTag.keys()].sort();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API documentation · ${escapeHtml(doc.info.title)}</title><style>${STYLE}</style></head>
<body><header><h1>${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>${escapeHtml(doc.info.description)}</p>
<p>${count} operations. The machine-readable document: <a href="${DOCS_PATH}/openapi.json">openapi.json</a> (OpenAPI ${doc.openapi}).</p>
<nav aria-label="Groups"><p>${tags.map((t) => `<a href="#${encodeURIComponent(t)}">${escapeHtml(t)}</a>`).join(' · ')}</p></nav></header>
<main>${tags.map((t) => `<section aria-labelledby="${encodeURIComponent(t)}"><h2 id="${encodeURIComponent(t)}">${escapeHtml(t)}</h2>${byTag.get(t)!.join('')}</section>`).join('')}</main>
</body></html>`;
}

export default async function docsRoutes(app: FastifyInstance) {
  let doc: OpenApiDocument | null = null;
  const documentOf = () => (doc ??= openApiDocument(app.routePolicies, OPERATIONS, app.config.apiVersion));

  /** Staff only; a signed-out browser is sent to sign in and brought back. */
  async function staffOrSignIn(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const auth = await getAuth(request);
    if (!auth) {
      reply.setCookie(TO_URL_COOKIE, request.url, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: request.protocol === 'https',
      });
      reply.header('cache-control', 'no-store').redirect(LOGIN_PATH, 303);
      return false;
    }
    if (!auth.user.isTevora) throw new HttpError(403, 'forbidden', 'The api documentation is for staff users.');
    return true;
  }

  app.get(DOCS_PATH, { config: { policy: 'public' } }, async (request, reply) => {
    if (!(await staffOrSignIn(request, reply))) return reply;
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(docsPage(documentOf()));
  });

  app.get(`${DOCS_PATH}/openapi.json`, { config: { policy: 'staff' } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(documentOf()),
  );
}
