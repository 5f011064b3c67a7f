import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { normalizeEmail, toUserRecord, type UserRecord } from './users';
import { isUniqueViolationOf, nowIso, toIso } from './values';

/** A company's SAML identity provider. `certificate` is PEM. */
export interface IdentityProviderRecord {
  companyId: string;
  entityId: string;
  ssoUrl: string;
  certificate: string;
  sloUrl: string | null;
  updatedAt: string;
}

export async function findIdentityProvider(
  db: Kysely<Database>,
  companyId: string,
): Promise<IdentityProviderRecord | null> {
  const row = await db
    .selectFrom('identity_providers')
    .selectAll()
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    companyId: row.company_id,
    entityId: row.entity_id,
    ssoUrl: row.sso_url,
    certificate: row.certificate,
    sloUrl: row.slo_url,
    updatedAt: toIso(row.updated_at),
  };
}

export async function saveIdentityProvider(
  db: Kysely<Database>,
  input: Omit<IdentityProviderRecord, 'updatedAt'>,
): Promise<IdentityProviderRecord> {
  const values = {
    entity_id: input.entityId,
    sso_url: input.ssoUrl,
    certificate: input.certificate,
    slo_url: input.sloUrl,
    updated_at: nowIso(),
  };
  await db
    .insertInto('identity_providers')
    .values({ company_id: input.companyId, ...values })
    .onConflict((oc) => oc.column('company_id').doUpdateSet(values))
    .execute();
  return { ...input, updatedAt: values.updated_at };
}

export async function deleteIdentityProvider(db: Kysely<Database>, companyId: string): Promise<void> {
  await db.deleteFrom('identity_providers').where('company_id', '=', companyId).execute();
}

/** The domain part of an email, lowercase (the text after its last @). */
export function emailDomain(email: string): string {
  const normalized = normalizeEmail(email);
  return normalized.slice(normalized.lastIndexOf('@') + 1);
}

/**
 * Who signs in through an identity provider: a client user (staff never federate) whose email domain
 * a company has verified, who belongs to that company, and that company has an identity provider.
 * Only that company's identity provider is trusted for the user, however many companies share them;
 * a user whose domain no company has verified signs in with a password.
 */
export async function findFederationByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<{ user: UserRecord; companyId: string } | null> {
  const row = await db
    .selectFrom('users')
    .innerJoin('company_domains as cd', (join) =>
      join.on('cd.domain', '=', emailDomain(email)).on('cd.verified_at', 'is not', null),
    )
    .innerJoin('company_memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'users.id').onRef('m.company_id', '=', 'cd.company_id'),
    )
    .innerJoin('identity_providers as ip', 'ip.company_id', 'cd.company_id')
    .selectAll('users')
    .select('cd.company_id as federation_company_id')
    .where('users.email', '=', normalizeEmail(email))
    .where('users.is_tevora', '=', false)
    .where('m.access_revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const { federation_company_id, ...user } = row;
  return { user: toUserRecord(user), companyId: federation_company_id };
}

/** Whether the company signs in this email's users with its identity provider (it has one and has verified the domain). */
export async function companyFederatesEmail(db: Kysely<Database>, companyId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('company_domains as cd')
    .innerJoin('identity_providers as ip', 'ip.company_id', 'cd.company_id')
    .select('cd.id')
    .where('cd.company_id', '=', companyId)
    .where('cd.domain', '=', emailDomain(email))
    .where('cd.verified_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** An email domain a company claims, and how (and whether) it was verified. */
export interface CompanyDomainRecord {
  id: string;
  companyId: string;
  domain: string;
  /** The value of the DNS TXT record that proves the company holds the domain. */
  verificationToken: string;
  verifiedAt: string | null;
  verifiedBy: 'dns' | 'staff' | null;
  createdAt: string;
}

type CompanyDomainRow = {
  id: string;
  company_id: string;
  domain: string;
  verification_token: string;
  verified_at: Date | string | null;
  verified_by: 'dns' | 'staff' | null;
  created_at: Date | string;
};

function toCompanyDomain(row: CompanyDomainRow): CompanyDomainRecord {
  return {
    id: row.id,
    companyId: row.company_id,
    domain: row.domain,
    verificationToken: row.verification_token,
    verifiedAt: row.verified_at === null ? null : toIso(row.verified_at),
    verifiedBy: row.verified_by,
    createdAt: toIso(row.created_at),
  };
}

const domainColumns = [
  'id',
  'company_id',
  'domain',
  'verification_token',
  'verified_at',
  'verified_by',
  'created_at',
] as const;

/** The company's domains, verified first, then by name. */
export async function listCompanyDomains(db: Kysely<Database>, companyId: string): Promise<CompanyDomainRecord[]> {
  const rows = await db
    .selectFrom('company_domains')
    .select(domainColumns)
    .where('company_id', '=', companyId)
    .orderBy('domain')
    .execute();
  return rows.map(toCompanyDomain).sort((a, b) => Number(b.verifiedAt !== null) - Number(a.verifiedAt !== null));
}

export async function findCompanyDomain(
  db: Kysely<Database>,
  companyId: string,
  id: string,
): Promise<CompanyDomainRecord | null> {
  const row = await db
    .selectFrom('company_domains')
    .select(domainColumns)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toCompanyDomain(row) : null;
}

/** The company that has verified the domain, if any. */
export async function verifiedDomainOwner(db: Kysely<Database>, domain: string): Promise<string | null> {
  const row = await db
    .selectFrom('company_domains')
    .select('company_id')
    .where('domain', '=', domain)
    .where('verified_at', 'is not', null)
    .executeTakeFirst();
  return row?.company_id ?? null;
}

export class DomainConflict extends Error {
  constructor(readonly reason: 'listed' | 'verified_elsewhere') {
    super(reason);
    this.name = 'DomainConflict';
  }
}

/** Claims a domain for the company, unverified, with a new verification token. */
export async function addCompanyDomain(
  db: Kysely<Database>,
  companyId: string,
  domain: string,
): Promise<CompanyDomainRecord> {
  const row = {
    id: randomUUID(),
    company_id: companyId,
    domain,
    verification_token: randomBytes(18).toString('base64url'),
    verified_at: null,
    verified_by: null,
    created_at: nowIso(),
  } satisfies CompanyDomainRow;
  try {
    await db.insertInto('company_domains').values(row).execute();
  } catch (error) {
    if (
      isUniqueViolationOf(
        error,
        'company_domains_company_domain_key',
        'company_domains.company_id, company_domains.domain',
      )
    )
      throw new DomainConflict('listed');
    throw error;
  }
  return toCompanyDomain(row);
}

/** Marks the domain verified; DomainConflict when another company verified it first (the unique index decides). */
export async function markCompanyDomainVerified(
  db: Kysely<Database>,
  domain: CompanyDomainRecord,
  by: 'dns' | 'staff',
  userId: string,
): Promise<CompanyDomainRecord> {
  const verifiedAt = nowIso();
  try {
    await db
      .updateTable('company_domains')
      .set({ verified_at: verifiedAt, verified_by: by, verified_by_user_id: userId })
      .where('id', '=', domain.id)
      .where('company_id', '=', domain.companyId)
      .execute();
  } catch (error) {
    if (isUniqueViolationOf(error, 'company_domains_verified_domain_key', 'company_domains.domain'))
      throw new DomainConflict('verified_elsewhere');
    throw error;
  }
  return { ...domain, verifiedAt, verifiedBy: by };
}

export async function deleteCompanyDomain(db: Kysely<Database>, companyId: string, id: string): Promise<void> {
  await db.deleteFrom('company_domains').where('company_id', '=', companyId).where('id', '=', id).execute();
}

export async function markUserFederated(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable('users').set({ is_federated: true, updated_at: nowIso() }).where('id', '=', userId).execute();
}

/** An AuthnRequest we sent and that no response has answered yet. */
export interface SamlRequestRecord {
  id: string;
  companyId: string;
  /** sha256 of the binding cookie of the browser that started it (lib/saml.ts); null for requests from before it. */
  bindingHash: string | null;
  createdAt: string;
  expiresAt: string;
}

export async function saveSamlRequest(db: Kysely<Database>, request: SamlRequestRecord): Promise<void> {
  await db
    .insertInto('saml_requests')
    .values({
      id: request.id,
      company_id: request.companyId,
      binding_hash: request.bindingHash,
      created_at: request.createdAt,
      expires_at: request.expiresAt,
    })
    .execute();
}

/** The request, unless it does not exist or has expired. */
export async function findSamlRequest(
  db: Kysely<Database>,
  id: string,
  now: Date = new Date(),
): Promise<SamlRequestRecord | null> {
  const row = await db
    .selectFrom('saml_requests')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    companyId: row.company_id,
    bindingHash: row.binding_hash,
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
  };
}

export async function deleteSamlRequest(db: Kysely<Database>, id: string, companyId: string): Promise<void> {
  await db.deleteFrom('saml_requests').where('id', '=', id).where('company_id', '=', companyId).execute();
}

/**
 * Records that an assertion was consumed. False when it already was: the primary key makes this
 * atomic, so two instances receiving the same assertion at once accept it only once.
 */
export async function recordAssertionUse(db: Kysely<Database>, id: string, expiresAt: Date): Promise<boolean> {
  const result = await db
    .insertInto('saml_used_assertions')
    .values({ id, expires_at: expiresAt.toISOString() })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Housekeeping: unanswered requests and remembered assertions past their expiry. */
export async function deleteExpiredSamlRecords(db: Kysely<Database>, now: Date = new Date()): Promise<void> {
  await db.deleteFrom('saml_requests').where('expires_at', '<=', now.toISOString()).execute();
  await db.deleteFrom('saml_used_assertions').where('expires_at', '<=', now.toISOString()).execute();
}
