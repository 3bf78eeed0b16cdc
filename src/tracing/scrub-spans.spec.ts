import { scrubSpan, type ScrubbableSpan } from './scrub-spans';

const SERVER = 1;
const CLIENT = 2;
const INTERNAL = 0;

function span(kind: number, attributes: Record<string, unknown>, events: Array<Record<string, unknown>> = []) {
  const made = {
    kind,
    attributes,
    events: events.map((attributes) => ({ attributes })),
    status: { code: 2, message: 'carrier answered 500: {"recipient":{"phone":"+79120000000"}}' },
  };
  scrubSpan(made satisfies ScrubbableSpan);
  return made;
}

describe('scrubSpan', () => {
  it('keeps the path of a request but never its query string', () => {
    const scrubbed = span(SERVER, {
      'http.route': '/admin/brands/:brandId/webhook-endpoints',
      'url.path': '/admin/brands/12/webhook-endpoints?cursor=abc&token=t0ps3cret',
      'url.query': 'cursor=abc&token=t0ps3cret',
      'http.response.status_code': 200,
    });
    expect(scrubbed.attributes).toEqual({
      'http.route': '/admin/brands/:brandId/webhook-endpoints',
      'url.path': '/admin/brands/12/webhook-endpoints',
      'http.response.status_code': 200,
    });
  });

  it('redacts a key or a secret a caller put in the path of a server span', () => {
    const key = `csh_at_${'0'.repeat(64)}`;
    const scrubbed = span(SERVER, {
      'url.path': `/orders/admin/${key}`,
      'http.target': `/x/whsec_QUJDRA==?a=b`,
      'url.full': `http://127.0.0.1/s/${'c'.repeat(48)}`,
    });
    expect(scrubbed.attributes).toEqual({
      'url.path': '/orders/admin/[redacted]',
      'http.target': '/x/[redacted]',
      'url.full': 'http://127.0.0.1/s/[redacted]',
    });
  });

  it('strips the query of a framework span’s URL (Nest records the original URL)', () => {
    expect(span(INTERNAL, { 'url.full': '/orders/admin?limit=5#x', 'http.url': '/a?b=c' }).attributes).toEqual({
      'url.full': '/orders/admin',
      'http.url': '/a',
    });
  });

  it('names only the origin of an outbound call: a receiver’s URL may hold its own token', () => {
    const scrubbed = span(CLIENT, {
      'url.full': 'https://user:pass@hooks.example.com:8443/services/T0/B0/s3cr3t?sig=abc',
      'url.path': '/services/T0/B0/s3cr3t',
      'url.query': 'sig=abc',
      'server.address': 'hooks.example.com',
      'http.request.header.authorization': ['Bearer csh_at_x'],
      'http.response.header.set-cookie': ['session=x'],
    });
    expect(scrubbed.attributes).toEqual({
      'url.full': 'https://hooks.example.com:8443',
      'server.address': 'hooks.example.com',
    });
  });

  it('drops statement parameters, exception texts and the status message; keeps the statement and the error type', () => {
    const scrubbed = span(
      CLIENT,
      {
        'db.query.text': 'SELECT * FROM orders WHERE id = $1',
        'db.postgresql.values': ['+79120000000'],
        'db.query.parameter.0': 'buyer@example.com',
      },
      [{ 'exception.type': 'QueryFailedError', 'exception.message': 'value "Ivanova"', 'exception.stacktrace': 'x' }],
    );
    expect(scrubbed.attributes).toEqual({ 'db.query.text': 'SELECT * FROM orders WHERE id = $1' });
    expect(scrubbed.events[0].attributes).toEqual({ 'exception.type': 'QueryFailedError' });
    expect(scrubbed.status).toEqual({ code: 2 });
  });
});
