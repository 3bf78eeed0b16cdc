import type { IncomingMessage, ServerResponse } from 'node:http';
import { contextOf } from './common/context/context-of';
import type { HttpRequest } from './common/context/http-types';
import type { Principal, PrincipalKind } from './common/context/principal';
import { keyFieldsOf, pinoHttpOptions, PRETTY_TRANSPORT } from './logging-options';

function principal(kind: PrincipalKind, id: number, boundBrandId: number | null): Principal {
  return {
    kind,
    id,
    isSuperadmin: false,
    boundBrandId,
    defaultBrandId: () => boundBrandId,
    permissionsIn: () => new Set(),
  };
}

/** A request as Fastify hands it to the guards: Node's own request is `raw`, which pino-http is given. */
function fastifyRequest(): { request: HttpRequest; raw: IncomingMessage } {
  const raw = { rawHeaders: [] } as unknown as IncomingMessage;
  const request = { headers: {}, method: 'POST', url: '/orders/integrations/partner/webhook', raw } as HttpRequest;
  return { request, raw };
}

describe('log options', () => {
  it('writes JSON lines when standard output is not a terminal, pino-pretty lines when it is', () => {
    const json = pinoHttpOptions('info', { requestLines: true, terminal: false });
    expect(json).not.toHaveProperty('transport');
    const pretty = pinoHttpOptions('info', { requestLines: true, terminal: true });
    expect(pretty.transport).toEqual(PRETTY_TRANSPORT);
    expect(PRETTY_TRANSPORT.target).toBe('pino-pretty');
    // The transport is loaded by name in a worker thread: the package must resolve from here.
    expect(() => require.resolve(PRETTY_TRANSPORT.target)).not.toThrow();
  });

  it('names the key and its brand on the line of a request an integration or site key made', () => {
    const { request, raw } = fastifyRequest();
    const context = contextOf(request);
    expect(keyFieldsOf(raw)).toBeUndefined();
    context.principal = principal('integration_key', 42, 7);
    context.brandId = 7;
    expect(keyFieldsOf(raw)).toEqual({ brandId: 7, keyId: 42, keyKind: 'integration_key' });
    const options = pinoHttpOptions('info', { requestLines: true, terminal: false });
    const response = {} as ServerResponse;
    expect(options.customSuccessObject!(raw, response, { responseTime: 3 })).toEqual({
      responseTime: 3,
      brandId: 7,
      keyId: 42,
      keyKind: 'integration_key',
    });
    expect(options.customErrorObject!(raw, response, new Error('x'), { responseTime: 3 })).toMatchObject({ keyId: 42 });

    const site = fastifyRequest();
    contextOf(site.request).principal = principal('site_key', 9, 3);
    expect(keyFieldsOf(site.raw)).toEqual({ brandId: 3, keyId: 9, keyKind: 'site_key' });
  });

  it('adds nothing for a user, a signed webhook or a request no guard has seen', () => {
    const { request, raw } = fastifyRequest();
    contextOf(request).principal = principal('user', 1, null);
    expect(keyFieldsOf(raw)).toBeUndefined();
    const signed = fastifyRequest();
    contextOf(signed.request).principal = principal('webhook', 1, null);
    expect(keyFieldsOf(signed.raw)).toBeUndefined();
    expect(keyFieldsOf(fastifyRequest().raw)).toBeUndefined();
    const options = pinoHttpOptions('info', { requestLines: true, terminal: false });
    expect(options.customSuccessObject!(raw, {} as ServerResponse, { responseTime: 3 })).toEqual({ responseTime: 3 });
  });

  it('logs a path without its query and with no key or secret a caller put in it', () => {
    const options = pinoHttpOptions('info', { requestLines: true, terminal: false });
    const req = (options.serializers as { req: (r: unknown) => { path: string } }).req;
    const url = `/site/${'ab'.repeat(24)}/x/csh_at_${'1'.repeat(64)}/whsec_QUJD%2BZA%3D%3D?token=t0ps3cret`;
    expect(req({ id: '1', method: 'GET', url, raw: {} }).path).toBe('/site/[redacted]/x/[redacted]/[redacted]');
  });
});
