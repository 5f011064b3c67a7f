import type { Company } from '@portal/shared/core/schemas';
import type { CompanyRecord } from '../../db/companies';
import { imageUrl } from '../../lib/images';

/** A company as the api answers it: its logo as the address the image route serves. */
export function toCompanyDto(company: CompanyRecord): Company {
  return {
    id: company.id,
    name: company.name,
    logo: imageUrl('companies', company.id, company.logo),
    modulesAccess: company.modulesAccess,
  };
}
