import { defaultServiceName, otlpProtocol } from './tracing-sdk';

describe('starting the tracing', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    jest.resetModules();
  });

  /** Loads the entry as main.ts does, with the SDK module replaced by a probe that says whether it was loaded. */
  function loadEntry(env: Record<string, string | undefined>): { sdkLoaded: boolean; started: number } {
    process.env = { ...saved, ...env };
    const probe = { sdkLoaded: false, started: 0 };
    jest.isolateModules(() => {
      jest.doMock('./tracing-sdk', () => {
        probe.sdkLoaded = true;
        return { startTracing: () => (probe.started++, { stop: () => Promise.resolve() }) };
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('./start-tracing');
    });
    return probe;
  }

  it('loads nothing of the SDK without an OTLP endpoint', () => {
    expect(
      loadEntry({ OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined }),
    ).toEqual({ sdkLoaded: false, started: 0 });
    expect(loadEntry({ OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined })).toEqual({
      sdkLoaded: false,
      started: 0,
    });
  });

  it('starts once with an endpoint (the general one or the traces one)', () => {
    expect(loadEntry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toEqual({
      sdkLoaded: true,
      started: 1,
    });
    expect(
      loadEntry({
        OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces',
      }),
    ).toEqual({ sdkLoaded: true, started: 1 });
  });

  it('stays off when OTEL_SDK_DISABLED is true, as the SDK itself would', () => {
    expect(loadEntry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'TRUE' })).toEqual({
      sdkLoaded: false,
      started: 0,
    });
  });

  it('exports http/protobuf unless http/json is asked for', () => {
    expect(otlpProtocol({})).toBe('http/protobuf');
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(
      otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }),
    ).toBe('http/protobuf');
  });

  it('names the service commerce-integration-layer unless the standard variables name it', () => {
    expect(defaultServiceName({})).toBe('commerce-integration-layer');
    expect(defaultServiceName({ OTEL_SERVICE_NAME: 'shop-api' })).toBeUndefined();
    expect(
      defaultServiceName({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=shop' }),
    ).toBeUndefined();
    expect(defaultServiceName({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod' })).toBe(
      'commerce-integration-layer',
    );
  });
});
