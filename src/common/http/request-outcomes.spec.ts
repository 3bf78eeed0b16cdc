import type { HttpRequest } from '../context/http-types';
import { RequestOutcomes, type RequestOutcome } from './request-outcomes';
import type { RouteTemplates } from './route-templates';

function outcomes() {
  const of = jest.fn<string | null, [string, string]>().mockReturnValue('/orders/admin/:orderId');
  const subject = new RequestOutcomes({ of } as unknown as RouteTemplates);
  const heard: RequestOutcome[] = [];
  subject.listen((o) => heard.push(o));
  const request = { method: 'POST', url: '/orders/admin/7?q=1', headers: {} } as unknown as HttpRequest;
  return { subject, of, heard, request };
}

describe('RequestOutcomes', () => {
  it('gives every listener the template of a failure the platform answered before routing', () => {
    const { subject, of, heard, request } = outcomes();
    subject.answered(request, null, 413, 1);
    expect(of).toHaveBeenCalledWith('POST', '/orders/admin/7');
    expect(heard[0].route).toBe('/orders/admin/:orderId');
  });

  it('asks nothing of a success or of a request its platform routed', () => {
    const { subject, of, heard, request } = outcomes();
    subject.answered(request, null, 200, 1);
    subject.answered(request, '/orders/admin/:id', 404, 1);
    expect(of).not.toHaveBeenCalled();
    expect(heard.map((o) => o.route)).toEqual([null, '/orders/admin/:id']);
  });
});
