/** The api's documentation (the OpenAPI document and its page) is for signed-in staff only. */
import { createTestApp, type TestApp } from '../../../test/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the api documentation', () => {
  it('is served as openapi.json and as a page to staff, and to nobody else', async () => {
    const admin = await t.cookieFor('admin@demo.test');
    const json = await t.api({ method: 'GET', url: '/api/docs/openapi.json', cookie: admin });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({
      openapi: '3.1.0',
      paths: expect.objectContaining({ '/api/v1/projects/{id}': expect.any(Object) }),
    });
    const page = await t.api({ method: 'GET', url: '/api/docs', cookie: admin });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('/api/v1/projects/{id}/tasks');

    const client = await t.cookieFor('member@acme.test');
    expect((await t.api({ method: 'GET', url: '/api/docs/openapi.json', cookie: client })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: '/api/docs', cookie: client })).statusCode).toBe(403);
    expect((await t.api({ method: 'GET', url: '/api/docs/openapi.json' })).statusCode).toBe(401);
    const signedOut = await t.api({ method: 'GET', url: '/api/docs' });
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe('/auth/saml/login');
    expect(String(signedOut.headers['set-cookie'])).toContain('toUrl=%2Fapi%2Fdocs');
  });
});
