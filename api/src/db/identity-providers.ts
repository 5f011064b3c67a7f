import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { normalizeEmail, toUserRecord, type UserRecord } from './users';
import { nowIso, toIso } from './values';

/** A company's SAML identity provider. `certificate` is PEM. */
export interface IdentityProviderRecord {
  companyId: string;
  entityId: string;
  ssoUrl: string;
  certificate: string;
  sloUrl: string | null;
  updatedAt: string;
}

export async function findIdentityProvider(db: Kysely<Database>, companyId: string): Promise<IdentityProviderRecord | null> {
  const row = await db.selectFrom('identity_providers').selectAll().where('company_id', '=', companyId).executeTakeFirst();
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

/**
 * Who signs in through an identity provider: a client user (staff never federate) with a company
 * that has one; of several such companies, the first by name. That company's identity provider is
 * the only one trusted for the user.
 */
export async function findFederationByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<{ user: UserRecord; companyId: string } | null> {
  const row = await db
    .selectFrom('users')
    .innerJoin('company_memberships', 'company_memberships.user_id', 'users.id')
    .innerJoin('companies', 'companies.id', 'company_memberships.company_id')
    .innerJoin('identity_providers', 'identity_providers.company_id', 'companies.id')
    .selectAll('users')
    .select('companies.id as federation_company_id')
    .where('users.email', '=', normalizeEmail(email))
    .where('users.is_tevora', '=', false)
    .where('company_memberships.access_revoked_at', 'is', null)
    .orderBy('companies.name')
    .orderBy('companies.id')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const { federation_company_id, ...user } = row;
  return { user: toUserRecord(user), companyId: federation_company_id };
}

export async function markUserFederated(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable('users').set({ is_federated: true, updated_at: nowIso() }).where('id', '=', userId).execute();
}

/** An AuthnRequest we sent and that no response has answered yet. */
export interface SamlRequestRecord {
  id: string;
  companyId: string;
  createdAt: string;
  expiresAt: string;
}

export async function saveSamlRequest(db: Kysely<Database>, request: SamlRequestRecord): Promise<void> {
  await db
    .insertInto('saml_requests')
    .values({ id: request.id, company_id: request.companyId, created_at: request.createdAt, expires_at: request.expiresAt })
    .execute();
}

/** The request, unless it does not exist or has expired. */
export async function findSamlRequest(db: Kysely<Database>, id: string, now: Date = new Date()): Promise<SamlRequestRecord | null> {
  const row = await db
    .selectFrom('saml_requests')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (!row) return null;
  return { id: row.id, companyId: row.company_id, createdAt: toIso(row.created_at), expiresAt: toIso(row.expires_at) };
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
