import {
  ErrorCode,
  NOOP_PROVIDER,
  OpenFeature,
  ProviderEvents,
  ProviderStatus,
  StandardResolutionReasons,
} from '@openfeature/web-sdk';
import type { FeatureFlagsPayload } from '@portal/shared/core/feature-flags';
import { FakeEventSource } from './fake-event-source';
import { PortalFlagsProvider } from './portal-flags-provider';

const payload = (helpLink: boolean, version = '1'): FeatureFlagsPayload => ({
  flags: {
    'header-help-link': { value: helpLink, reason: 'STATIC' },
    'help-url': { value: 'https://help.example/', reason: 'STATIC' },
    'staff-preview': { value: true, variant: 'staff', reason: 'TARGETING_MATCH' },
    limits: { value: { max: 3 }, reason: 'STATIC' },
  },
  version,
});
const context = {
  targetingKey: 'u-1',
  key: 'u-1',
  firstName: 'L',
  lastName: 'C',
  email: 'lead@acme.test',
  anonymous: false,
  custom: { isTevora: false },
};
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const logger = { warn: jest.fn(), error: jest.fn() };
const tick = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  FakeEventSource.reset();
  logger.warn.mockReset();
  logger.error.mockReset();
});
afterEach(async () => {
  OpenFeature.setProvider(NOOP_PROVIDER);
  OpenFeature.clearHandlers();
  await OpenFeature.clearContext();
});

describe('PortalFlagsProvider', () => {
  it('initializes from GET /api/v1/feature-flags with credentials and the client header, then follows the stream', async () => {
    const fetch = jest.fn(async () => json(payload(false)));
    const provider = new PortalFlagsProvider({ fetch, eventSource: FakeEventSource.factory, logger });
    await OpenFeature.setProviderAndWait(provider, context);

    expect(fetch).toHaveBeenCalledWith(
      '/api/v1/feature-flags',
      expect.objectContaining({
        credentials: 'include',
        headers: expect.objectContaining({ 'X-Portal-Client': 'web' }),
      }),
    );
    expect(FakeEventSource.latest.url).toBe('/api/v1/feature-flags/stream');
    const client = OpenFeature.getClient();
    expect(client.providerStatus).toBe(ProviderStatus.READY);
    expect(client.getBooleanDetails('header-help-link', true)).toMatchObject({ value: false, reason: 'STATIC' });
    expect(client.getBooleanDetails('staff-preview', false)).toMatchObject({
      value: true,
      variant: 'staff',
      reason: StandardResolutionReasons.TARGETING_MATCH,
    });
    expect(client.getStringValue('help-url', 'x')).toBe('https://help.example/');
    expect(client.getObjectValue('limits', {})).toEqual({ max: 3 });
    expect(client.getBooleanDetails('no-such-flag', true)).toMatchObject({
      value: true,
      errorCode: ErrorCode.FLAG_NOT_FOUND,
    });
    expect(client.getStringDetails('header-help-link', 'd')).toMatchObject({
      value: 'd',
      errorCode: ErrorCode.TYPE_MISMATCH,
    });
  });

  it('updates its cache from a stream event and emits ConfigurationChanged with the changed keys only', async () => {
    const provider = new PortalFlagsProvider({
      fetch: async () => json(payload(false)),
      eventSource: FakeEventSource.factory,
      logger,
    });
    await OpenFeature.setProviderAndWait(provider, context);
    const changed = jest.fn();
    OpenFeature.addHandler(ProviderEvents.ConfigurationChanged, changed);

    // the stream's first event repeats what the GET said: nothing changed, nothing emitted
    FakeEventSource.latest.emit('flags', payload(false, '1'));
    await tick();
    expect(changed).not.toHaveBeenCalled();

    FakeEventSource.latest.emit('flags', payload(true, '2'));
    await tick();
    expect(changed).toHaveBeenCalledTimes(1);
    expect(changed).toHaveBeenCalledWith(
      expect.objectContaining({ flagsChanged: ['header-help-link'], providerName: 'portal-api' }),
    );
    expect(OpenFeature.getClient().getBooleanValue('header-help-link', false)).toBe(true);
    expect(provider.values()['header-help-link']).toBe(true);

    // a flag deleted on the server is a change too; a malformed message is logged and ignored
    const { 'staff-preview': _gone, ...rest } = payload(true, '3').flags;
    FakeEventSource.latest.emit('flags', { flags: rest, version: '3' });
    FakeEventSource.latest.emit('flags', { nonsense: true });
    await tick();
    expect(changed).toHaveBeenLastCalledWith(expect.objectContaining({ flagsChanged: ['staff-preview'] }));
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('unexpected shape'));
    expect(OpenFeature.getClient().getBooleanValue('staff-preview', false)).toBe(false);
  });

  it('fails to initialize when the api fails, serves defaults, and becomes ready when the stream delivers', async () => {
    const provider = new PortalFlagsProvider({
      fetch: async () => json({ code: 'internal_error' }, 500),
      eventSource: FakeEventSource.factory,
      logger,
    });
    await expect(OpenFeature.setProviderAndWait(provider, context)).rejects.toThrow('answered 500');
    const client = OpenFeature.getClient();
    expect(client.providerStatus).toBe(ProviderStatus.ERROR);
    expect(client.getBooleanValue('header-help-link', false)).toBe(false);

    const ready = jest.fn();
    OpenFeature.addHandler(ProviderEvents.Ready, ready);
    FakeEventSource.latest.emit('flags', payload(true));
    await tick();
    expect(ready).toHaveBeenCalled();
    expect(client.providerStatus).toBe(ProviderStatus.READY);
    expect(client.getBooleanValue('header-help-link', false)).toBe(true);
  });

  it('refetches on a context change, and refuses a context without a key', async () => {
    const fetch = jest.fn(async () => json(payload(false)));
    const provider = new PortalFlagsProvider({ fetch, eventSource: FakeEventSource.factory, logger });
    await OpenFeature.setProviderAndWait(provider, context);
    fetch.mockImplementation(async () => json(payload(true, '2')));
    await OpenFeature.setContext({ ...context, firstName: 'Laura' });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(OpenFeature.getClient().getBooleanValue('header-help-link', false)).toBe(true);
    // the stream was reopened for the new context
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(FakeEventSource.instances[0].closed).toBe(true);

    await expect(
      new PortalFlagsProvider({ fetch, eventSource: null }).initialize({ anonymous: false }),
    ).rejects.toThrow('needs a key');
  });

  it('does not open a stream when closed while its first load was still in flight', async () => {
    let answer: (res: Response) => void = () => undefined;
    const provider = new PortalFlagsProvider({
      fetch: () => new Promise<Response>((resolve) => (answer = resolve)),
      eventSource: FakeEventSource.factory,
      logger,
    });
    const started = OpenFeature.setProviderAndWait(provider, context);
    OpenFeature.setProvider(NOOP_PROVIDER); // logout before the api answered
    answer(json(payload(true)));
    await started;
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(provider.values()).toEqual({});
  });

  it('closes its stream when replaced', async () => {
    const provider = new PortalFlagsProvider({
      fetch: async () => json(payload(false)),
      eventSource: FakeEventSource.factory,
      logger,
    });
    await OpenFeature.setProviderAndWait(provider, context);
    OpenFeature.setProvider(NOOP_PROVIDER);
    await tick();
    expect(FakeEventSource.latest.closed).toBe(true);
  });
});
