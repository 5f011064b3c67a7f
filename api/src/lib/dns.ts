import { Resolver } from 'node:dns/promises';
import { HttpError } from './http-error';

/** A domain's TXT records, each record's strings joined (a long value is split into 255-byte strings). */
export type TxtResolver = (domain: string) => Promise<string[]>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Looks up TXT records (company domain verification); tests give their own. */
    resolveTxt: TxtResolver;
  }
}

const NO_RECORDS = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME']);

/** The system's resolvers, with a short timeout: a slow DNS server must not hold a request for long. */
export function systemTxtResolver(): TxtResolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  return async (domain) => {
    try {
      return (await resolver.resolveTxt(domain)).map((chunks) => chunks.join(''));
    } catch (error) {
      if (NO_RECORDS.has((error as { code?: string }).code ?? '')) return [];
      throw new HttpError(
        503,
        'service_unavailable',
        'The DNS lookup of the domain did not answer. Please try again in a minute.',
      );
    }
  };
}
