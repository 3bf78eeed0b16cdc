import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signMessage } from './message-signature';

/** Checked with the published Standard Webhooks library, not only with our own code. */
describe('message signature', () => {
  const body = JSON.stringify({ type: 'order.paid', timestamp: '2026-11-22T10:00:00.000Z', data: { orderId: 1 } });
  const now = Math.floor(Date.now() / 1000);

  it('is verified by the standardwebhooks package', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(now),
      'webhook-signature': signMessage([secret], 'msg_1', now, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace('1}', '2}'), headers)).toThrow();
  });

  it('during a rotation carries both signatures, the new first, each verifying with its secret', () => {
    const [next, previous] = [newSigningSecret(), newSigningSecret()];
    const signature = signMessage([next, previous], 'msg_2', now, body);
    expect(signature.split(' ')).toHaveLength(2);
    expect(signature.split(' ')[0]).toBe(signMessage([next], 'msg_2', now, body));
    const headers = { 'webhook-id': 'msg_2', 'webhook-timestamp': String(now), 'webhook-signature': signature };
    expect(new Webhook(next).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });
});
