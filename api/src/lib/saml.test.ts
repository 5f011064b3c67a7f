import { loadConfig } from '../config';
import { createTestIdentityProvider } from '../test/saml-idp';
import { parseCertificate, serviceProviderFor } from './saml';

describe('serviceProviderFor', () => {
  it('derives the entity id and ACS URL from PUBLIC_URL', () => {
    expect(serviceProviderFor(loadConfig({ PUBLIC_URL: 'https://portal.example.com:443' }))).toEqual({
      entityId: 'https://portal.example.com/auth/saml/metadata',
      acsUrl: 'https://portal.example.com/auth/saml/acs',
      metadataUrl: 'https://portal.example.com/auth/saml/metadata',
    });
  });

  it('in development, without PUBLIC_URL, is http://localhost on PORT', () => {
    expect(serviceProviderFor(loadConfig({ PORT: '9090' })).acsUrl).toBe('http://localhost:9090/auth/saml/acs');
  });

  it('uses SAML_SP_ENTITY_ID when set', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://portal.example.com/', SAML_SP_ENTITY_ID: 'urn:example:portal' });
    expect(serviceProviderFor(config)).toEqual({
      entityId: 'urn:example:portal',
      acsUrl: 'https://portal.example.com/auth/saml/acs',
      metadataUrl: 'https://portal.example.com/auth/saml/metadata',
    });
  });

  it.each(['portal.example.com', 'ftp://portal.example.com', 'https://portal.example.com/portal'])(
    'refuses PUBLIC_URL %s',
    (value) => {
      expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(/^Invalid configuration: PUBLIC_URL /);
    },
  );
});

describe('parseCertificate', () => {
  const { certificate, privateKey } = createTestIdentityProvider();

  it('reads PEM and base64 DER', () => {
    expect(parseCertificate(certificate)?.subject).toBe('CN=idp.example.test');
    expect(parseCertificate(certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, ''))?.toString()).toBe(
      parseCertificate(certificate)?.toString(),
    );
  });

  it('answers null for anything else', () => {
    expect(parseCertificate(privateKey)).toBeNull();
    expect(parseCertificate('')).toBeNull();
    expect(parseCertificate(Buffer.from('x'.repeat(200)).toString('base64'))).toBeNull();
  });
});
