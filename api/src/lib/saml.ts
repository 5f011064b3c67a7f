/**
 * The portal as a SAML 2.0 service provider (@node-saml/node-saml): AuthnRequests to a company's
 * identity provider and validation of the responses posted back to the assertion consumer service.
 */
import { X509Certificate } from 'node:crypto';
import {
  SAML,
  SamlStatusError,
  ValidateInResponseTo,
  generateServiceProviderMetadata,
  type CacheProvider,
  type Profile,
} from '@node-saml/node-saml';
// node-saml's own parser: InResponseTo is read here exactly as node-saml reads it.
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml';
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config';
import {
  deleteSamlRequest,
  findIdentityProvider,
  findSamlRequest,
  recordAssertionUse,
  saveSamlRequest,
  type IdentityProviderRecord,
} from '../db/identity-providers';
import type { Database } from '../db/schema';

export const SAML_ACS_PATH = '/auth/saml/acs';
export const SAML_METADATA_PATH = '/auth/saml/metadata';
/** How long an AuthnRequest waits for its response. */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;
/** Tolerated difference between our clock and the identity provider's. */
export const SAML_CLOCK_SKEW_MS = 60_000;
/**
 * The cookie that binds an AuthnRequest to the browser that started it: its hash is kept with the
 * request, and the ACS accepts a response only with the same cookie (no login CSRF, no response
 * carried to another browser). SameSite=None, since the identity provider's form post is cross-site;
 * so it is Secure too (browsers keep Secure cookies of http://localhost as well).
 */
export const SAML_BINDING_COOKIE = 'pe_saml_binding';
const BINDING_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new binding value (256 random bits), or the browser's own when it sent a well-formed one. */
export function samlBindingFor(existing: string | undefined): string {
  return existing && BINDING_PATTERN.test(existing) ? existing : randomBytes(32).toString('base64url');
}

export function samlBindingHash(binding: string): string {
  return createHash('sha256').update(binding).digest('base64url');
}

const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** The portal as the identity provider knows it. */
export interface ServiceProvider {
  entityId: string;
  acsUrl: string;
  metadataUrl: string;
}

/** The portal as a service provider: always PUBLIC_URL's (never a request's Host), SAML_SP_ENTITY_ID when set. */
export function serviceProviderFor(config: Pick<AppConfig, 'publicUrl' | 'samlSpEntityId'>): ServiceProvider {
  const base = config.publicUrl;
  return {
    entityId: config.samlSpEntityId ?? `${base}${SAML_METADATA_PATH}`,
    acsUrl: `${base}${SAML_ACS_PATH}`,
    metadataUrl: `${base}${SAML_METADATA_PATH}`,
  };
}

export function serviceProviderMetadata(sp: ServiceProvider): string {
  return generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    wantAssertionsSigned: true,
  });
}

/** A certificate in PEM or base64 DER, or null when it is not an X.509 certificate. */
export function parseCertificate(text: string): X509Certificate | null {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  try {
    return new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    return null;
  }
}

/**
 * The `saml_requests` table as node-saml's InResponseTo cache, seen from one company: every api
 * instance shares it, and a response validated with a company's certificate can only answer a
 * request that was sent to that company's identity provider.
 */
function requestStore(db: Kysely<Database>, companyId: string, bindingHash: string | null): CacheProvider {
  return {
    async saveAsync(id, instant) {
      const createdAt = new Date(instant);
      if (!bindingHash) throw new Error('an AuthnRequest is recorded only with the browser binding');
      await saveSamlRequest(db, {
        id,
        companyId,
        bindingHash,
        createdAt: createdAt.toISOString(),
        expiresAt: new Date(createdAt.getTime() + SAML_REQUEST_TTL_MS).toISOString(),
      });
      return { value: instant, createdAt: createdAt.getTime() };
    },
    async getAsync(id) {
      const request = await findSamlRequest(db, id);
      return request && request.companyId === companyId ? request.createdAt : null;
    },
    async removeAsync(id) {
      if (id) await deleteSamlRequest(db, id, companyId);
      return id;
    },
  };
}

function samlFor(
  db: Kysely<Database>,
  sp: ServiceProvider,
  provider: IdentityProviderRecord,
  bindingHash: string | null = null,
): SAML {
  return new SAML({
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    entryPoint: provider.ssoUrl,
    idpCert: provider.certificate,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    // The identity provider decides how strongly to authenticate (its MFA policy), not us.
    disableRequestedAuthnContext: true,
    // Each assertion must carry its own valid signature; a signed envelope alone is not enough
    // (and many identity providers sign only the assertion).
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
    cacheProvider: requestStore(db, provider.companyId, bindingHash),
  });
}

/** The identity provider's sign-in URL with a new AuthnRequest, recorded for InResponseTo with the browser's binding. */
export function authorizeUrl(
  db: Kysely<Database>,
  sp: ServiceProvider,
  provider: IdentityProviderRecord,
  relayState: string,
  binding: string,
): Promise<string> {
  return samlFor(db, sp, provider, samlBindingHash(binding)).getAuthorizeUrlAsync(relayState, undefined, {});
}

/** Why a SAML response was refused: `message` is for the user, `reason` for the log. */
export class SamlRejection extends Error {
  constructor(
    readonly statusCode: 400 | 403,
    readonly code: string,
    message: string,
    readonly reason: string,
  ) {
    super(message);
    this.name = 'SamlRejection';
  }
}

const WRONG_ADDRESS = 'The sign-in response was addressed to another service, not this portal.';
const NOT_IN_PROGRESS =
  'This sign-in response does not answer a sign-in in progress here: it was already used or has expired. Please sign in again.';

/** node-saml reports failures as plain errors: sort them into what the user can be told. */
function rejectionFor(error: unknown): SamlRejection {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof SamlStatusError) {
    return new SamlRejection(400, 'saml_idp_error', 'Your identity provider did not sign you in.', reason);
  }
  if (/InResponseTo/i.test(reason)) return new SamlRejection(400, 'saml_request_unknown', NOT_IN_PROGRESS, reason);
  if (/signature/i.test(reason)) {
    return new SamlRejection(
      400,
      'saml_signature_invalid',
      "The sign-in response could not be verified: it is not signed by your company's identity provider.",
      reason,
    );
  }
  if (/audience/i.test(reason)) {
    return new SamlRejection(
      400,
      'saml_audience_mismatch',
      'The sign-in response was issued for another service, not this portal.',
      reason,
    );
  }
  if (/expired|not yet valid|subject confirmation/i.test(reason)) {
    return new SamlRejection(
      400,
      'saml_expired',
      'The sign-in response has expired or is not valid yet. Please sign in again.',
      reason,
    );
  }
  return new SamlRejection(
    400,
    'saml_response_invalid',
    'The sign-in response from your identity provider could not be accepted.',
    reason,
  );
}

/** The first NotOnOrAfter of the assertion (Conditions, else the subject confirmation). */
function assertionExpiry(assertion: Record<string, unknown>): Date | null {
  type Node = { $?: Record<string, string> } & Record<string, unknown>;
  const first = (value: unknown): Node | undefined => (Array.isArray(value) ? (value[0] as Node) : undefined);
  const conditions = first(assertion.Conditions);
  const subject = first(assertion.Subject);
  const confirmation = first(first(subject?.SubjectConfirmation)?.SubjectConfirmationData);
  const raw = conditions?.$?.NotOnOrAfter ?? confirmation?.$?.NotOnOrAfter;
  const time = raw ? Date.parse(raw) : NaN;
  return Number.isNaN(time) ? null : new Date(time);
}

function emailOf(profile: Profile): string | null {
  const candidates = [profile.nameID, profile.email, profile.mail];
  const email = candidates.find((c): c is string => typeof c === 'string' && /^[^@\s]+@[^@\s]+$/.test(c.trim()));
  return email ? email.trim() : null;
}

export interface VerifiedSamlResponse {
  companyId: string;
  /** From the NameID when it is an email, else the email attribute; null when the assertion has none. */
  email: string | null;
}

type XmlNode = { $?: Record<string, string> } & Record<string, unknown>;
const children = (value: unknown): XmlNode[] => (Array.isArray(value) ? (value as XmlNode[]) : []);

/**
 * The signed assertion's own answer to "for whom and for which request": every bearer
 * SubjectConfirmationData must name our ACS URL as Recipient and the request as InResponseTo. The
 * Response envelope around it may be unsigned, so its InResponseTo alone proves nothing.
 */
function confirmationProblem(
  assertion: Record<string, unknown>,
  sp: ServiceProvider,
  requestId: string,
): string | null {
  const confirmations = children(children(assertion.Subject)[0]?.SubjectConfirmation);
  const data = confirmations.flatMap((c) => children(c.SubjectConfirmationData));
  if (data.length === 0) return 'signed assertion has no SubjectConfirmationData';
  for (const d of data) {
    if (d.$?.Recipient !== sp.acsUrl) return `Recipient ${JSON.stringify(d.$?.Recipient ?? null)} is not the ACS URL`;
    if (d.$?.InResponseTo !== requestId)
      return `signed InResponseTo ${JSON.stringify(d.$?.InResponseTo ?? null)} is not the request`;
  }
  return null;
}

/**
 * Validates a posted SAMLResponse (base64): it must answer a request we sent to this browser (the
 * request decides the company, so unsolicited responses are refused; the binding cookie names the
 * browser), be addressed to our ACS URL (Destination, and the signed Recipient), carry an assertion
 * signed by that company's identity provider that itself answers the request (signed InResponseTo),
 * for our audience, within its time window, and not seen before.
 */
export async function verifySamlResponse(
  db: Kysely<Database>,
  sp: ServiceProvider,
  samlResponse: unknown,
  binding: string | undefined,
): Promise<VerifiedSamlResponse> {
  if (typeof samlResponse !== 'string' || samlResponse.trim() === '') {
    throw new SamlRejection(
      400,
      'saml_response_missing',
      'The sign-in response from your identity provider is missing.',
      'no SAMLResponse',
    );
  }
  let inResponseTo: string | null;
  let destination: string | null;
  try {
    const doc = await parseDomFromString(Buffer.from(samlResponse, 'base64').toString('utf8'));
    inResponseTo = xpath.selectAttributes(doc, "/*[local-name()='Response']/@InResponseTo")[0]?.value ?? null;
    destination = xpath.selectAttributes(doc, "/*[local-name()='Response']/@Destination")[0]?.value ?? null;
  } catch (error) {
    throw new SamlRejection(
      400,
      'saml_response_invalid',
      'The sign-in response from your identity provider could not be read.',
      String(error),
    );
  }
  if (!inResponseTo) {
    throw new SamlRejection(
      400,
      'saml_unsolicited',
      'Sign-in must start at the portal: this response does not answer a sign-in started here.',
      'no InResponseTo (identity provider initiated)',
    );
  }
  if (destination !== sp.acsUrl) {
    throw new SamlRejection(
      400,
      'saml_destination_mismatch',
      WRONG_ADDRESS,
      `Destination ${JSON.stringify(destination)} is not the ACS URL`,
    );
  }
  const request = await findSamlRequest(db, inResponseTo);
  if (!request)
    throw new SamlRejection(400, 'saml_request_unknown', NOT_IN_PROGRESS, 'unknown or expired InResponseTo');
  if (!binding || !request.bindingHash || samlBindingHash(binding) !== request.bindingHash) {
    // Not consumed: the browser that did start it may still post its own response.
    throw new SamlRejection(
      400,
      'saml_browser_mismatch',
      'This sign-in was started in another browser or tab that has since closed. Please sign in again here.',
      binding ? 'binding cookie does not match the request' : 'no binding cookie',
    );
  }
  const provider = await findIdentityProvider(db, request.companyId);
  if (!provider) {
    throw new SamlRejection(
      400,
      'saml_not_configured',
      'Single sign-on is no longer set up for your company.',
      'identity provider removed',
    );
  }

  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(db, sp, provider).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw rejectionFor(error);
  } finally {
    // One response per request, whatever the outcome (node-saml does not always consume it).
    await deleteSamlRequest(db, request.id, request.companyId);
  }
  if (!profile)
    throw new SamlRejection(
      400,
      'saml_idp_error',
      'Your identity provider did not sign you in.',
      'no assertion (passive)',
    );
  if (profile.issuer !== provider.entityId) {
    throw new SamlRejection(
      400,
      'saml_issuer_mismatch',
      "The sign-in response was not issued by your company's identity provider.",
      `issuer ${JSON.stringify(profile.issuer)} is not the configured entity id`,
    );
  }

  const assertion = (
    profile.getAssertion?.() as { Assertion?: { $?: { ID?: string } } & Record<string, unknown> } | undefined
  )?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertion || !assertionId) {
    throw new SamlRejection(
      400,
      'saml_response_invalid',
      'The sign-in response from your identity provider could not be accepted.',
      'assertion without ID',
    );
  }
  const problem = confirmationProblem(assertion, sp, request.id);
  if (problem) {
    const code = problem.startsWith('Recipient') ? 'saml_destination_mismatch' : 'saml_request_unknown';
    throw new SamlRejection(400, code, code === 'saml_destination_mismatch' ? WRONG_ADDRESS : NOT_IN_PROGRESS, problem);
  }
  // Kept until it could no longer be accepted anyway; with no expiry stated, as long as a request lives.
  const until =
    Math.max(assertionExpiry(assertion)?.getTime() ?? 0, Date.now() + SAML_REQUEST_TTL_MS) + SAML_CLOCK_SKEW_MS;
  if (!(await recordAssertionUse(db, assertionId, new Date(until)))) {
    throw new SamlRejection(
      400,
      'saml_replayed',
      'This sign-in response has already been used. Please sign in again.',
      'assertion replayed',
    );
  }
  return { companyId: provider.companyId, email: emailOf(profile) };
}
