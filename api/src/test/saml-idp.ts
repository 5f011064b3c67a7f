/**
 * Test helper: a SAML identity provider in a few functions. A key and a self-signed certificate made
 * here (node-forge), responses written by hand and assertions signed with xml-crypto the way real
 * identity providers sign them (exclusive c14n, enveloped signature, rsa-sha256).
 */
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import forge from 'node-forge';
import { SignedXml } from 'xml-crypto';

export interface TestIdentityProvider {
  entityId: string;
  ssoUrl: string;
  /** PEM */
  certificate: string;
  /** PEM */
  privateKey: string;
}

export function createTestIdentityProvider(name = 'idp'): TestIdentityProvider {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  const subject = [{ name: 'commonName', value: `${name}.example.test` }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return {
    entityId: `https://${name}.example.test/saml`,
    ssoUrl: `https://${name}.example.test/sso`,
    certificate: forge.pki.certificateToPem(cert),
    privateKey: forge.pki.privateKeyToPem(keys.privateKey),
  };
}

const escapeXml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const newSamlId = () => `_${randomBytes(16).toString('hex')}`;

export interface AssertionOptions {
  issuer: string;
  /** The NameID (email format). */
  email: string;
  audience: string;
  /** The ACS URL. */
  recipient: string;
  /** SubjectConfirmationData's InResponseTo; omitted when null. */
  inResponseTo: string | null;
  id?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
}

/** An unsigned assertion with its own namespace declarations, so it can be signed on its own and embedded. */
export function buildAssertion(o: AssertionOptions): string {
  const now = Date.now();
  const issueInstant = new Date(now).toISOString();
  const notBefore = (o.notBefore ?? new Date(now - 30_000)).toISOString();
  const notOnOrAfter = (o.notOnOrAfter ?? new Date(now + 5 * 60_000)).toISOString();
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${escapeXml(o.inResponseTo)}"` : '';
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.id ?? newSamlId()}" Version="2.0" IssueInstant="${issueInstant}">` +
    `<saml:Issuer>${escapeXml(o.issuer)}</saml:Issuer>` +
    `<saml:Subject>` +
    `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${escapeXml(o.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(o.recipient)}"${inResponseTo}/>` +
    `</saml:SubjectConfirmation>` +
    `</saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:AudienceRestriction><saml:Audience>${escapeXml(o.audience)}</saml:Audience></saml:AudienceRestriction>` +
    `</saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issueInstant}" SessionIndex="${newSamlId()}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    `</saml:Assertion>`
  );
}

/** Signs the assertion (enveloped, exclusive c14n, rsa-sha256); the Signature goes after its Issuer, as the schema wants. */
export function signAssertion(
  assertionXml: string,
  idp: Pick<TestIdentityProvider, 'privateKey' | 'certificate'>,
): string {
  const sig = new SignedXml({
    privateKey: idp.privateKey,
    publicCert: idp.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "/*[local-name(.)='Assertion']",
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
  });
  sig.computeSignature(assertionXml, {
    location: { reference: "/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return sig.getSignedXml();
}

export interface ResponseOptions {
  issuer: string;
  destination: string;
  /** The Response's InResponseTo; omitted when null (an unsolicited response). */
  inResponseTo: string | null;
  /** Assertion XML, signed or not, placed as they are. */
  assertions: string[];
  statusCode?: string;
}

export function buildResponse(o: ResponseOptions): string {
  const inResponseTo = o.inResponseTo ? ` InResponseTo="${escapeXml(o.inResponseTo)}"` : '';
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="${newSamlId()}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${escapeXml(o.destination)}"${inResponseTo}>` +
    `<saml:Issuer>${escapeXml(o.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${o.statusCode ?? 'urn:oasis:names:tc:SAML:2.0:status:Success'}"/></samlp:Status>` +
    o.assertions.join('') +
    `</samlp:Response>`
  );
}

/** The SAMLResponse form field. */
export const encodeResponse = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

/** The AuthnRequest in an HTTP-Redirect binding URL (deflate-raw + base64), with its ID and the RelayState. */
export function authnRequestOf(redirectUrl: string): { id: string; xml: string; relayState: string | null } {
  const url = new URL(redirectUrl);
  const encoded = url.searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`no SAMLRequest in ${redirectUrl}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /<samlp:AuthnRequest\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error('AuthnRequest without ID');
  return { id, xml, relayState: url.searchParams.get('RelayState') };
}
