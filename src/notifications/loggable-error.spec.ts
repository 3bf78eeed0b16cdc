import { loggableError } from './loggable-error';

describe('loggableError', () => {
  it('keeps what failed and drops what the other side quoted', () => {
    expect(
      loggableError('carrier answered 422: {"recipient":{"fullName":"Ivanova Maria","phone":"+79120000000"}}'),
    ).toBe('carrier answered 422');
    expect(loggableError("Can't send mail - all recipients were rejected: 550 <maria@example.com>: no such user")).toBe(
      "Can't send mail - all recipients were rejected",
    );
  });

  it('masks an address or a phone number left in the head', () => {
    expect(loggableError('mailbox maria@example.com is full')).toBe('mailbox <address> is full');
    expect(loggableError('bad phone +7 (912) 000-00-00 refused')).toBe('bad phone <number> refused');
    expect(loggableError('connect ECONNREFUSED 127.0.0.1')).toBe('connect ECONNREFUSED 127.0.0.1');
  });
});
