/** Cookies (`request.cookies`, `reply.setCookie`): the session cookie (plugins/app/auth.ts) and the sign-in pages'. */
import cookie from '@fastify/cookie';

export default cookie;
