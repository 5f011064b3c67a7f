/** A company's email domains (single sign-on by verified domain, docs/adr/0008): their answer and conflict error. */
import { DOMAIN_VERIFICATION_PREFIX, type CompanyDomain } from '@portal/shared/core/schemas';
import { DomainConflict, type CompanyDomainRecord } from '../../db/identity-providers';
import { HttpError } from '../../lib/http-error';

export function toCompanyDomainDto(record: CompanyDomainRecord): CompanyDomain {
  return {
    id: record.id,
    domain: record.domain,
    status: record.verifiedAt ? 'verified' : 'pending',
    verification: {
      name: record.domain,
      type: 'TXT',
      value: `${DOMAIN_VERIFICATION_PREFIX}${record.verificationToken}`,
    },
    verifiedAt: record.verifiedAt,
    verifiedBy: record.verifiedBy,
    createdAt: record.createdAt,
  };
}

export const DOMAIN_TAKEN =
  'Another company has verified this domain: its users sign in through that company. Ask a staff admin if this is wrong.';

export function domainConflict(error: unknown): never {
  if (error instanceof DomainConflict) {
    throw new HttpError(
      409,
      'domain_taken',
      error.reason === 'listed' ? 'This domain is already listed for the company.' : DOMAIN_TAKEN,
      [
        {
          field: 'domain',
          message:
            error.reason === 'listed'
              ? 'This domain is already listed for the company'
              : 'Another company has verified this domain',
        },
      ],
    );
  }
  throw error;
}
