import { sql, type Kysely } from 'kysely';

/**
 * Which identity provider may sign in whom (issue 30): a company's identity provider signs in only
 * users whose email domain that company has verified (a DNS TXT record, or a staff admin's
 * confirmation), and a domain is verified by one company at most (the partial unique index). Existing
 * identity providers have no verified domain, so they sign in nobody until one is confirmed.
 *
 * And the browser that started an AuthnRequest: the hash of its binding cookie, checked at the ACS.
 * Requests made before this migration have none and are refused (they live ten minutes).
 * Frozen like 0001.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('company_domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('verification_token', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'timestamptz')
    .addColumn('verified_by', 'text')
    .addColumn('verified_by_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('company_domains_verified_by_check', sql`verified_by in ('dns', 'staff')`)
    .addCheckConstraint('company_domains_verified_check', sql`(verified_at is null) = (verified_by is null)`)
    .addUniqueConstraint('company_domains_company_domain_key', ['company_id', 'domain'])
    .execute();
  await sql`create unique index company_domains_verified_domain_key on company_domains (domain) where verified_at is not null`.execute(
    db,
  );

  await db.schema.alterTable('saml_requests').addColumn('binding_hash', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('saml_requests').dropColumn('binding_hash').execute();
  await db.schema.dropTable('company_domains').execute();
}
