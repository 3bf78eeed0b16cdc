import { buyerValues, quotesBuyer, scrubbedAnswer } from './stored-answer-scrub';

describe('the scrub of stored answers', () => {
  const buyer = buyerValues([
    'Zvyagintseva Varvara Ostapovna',
    'Zvyagintseva',
    'Yan',
    '8 (915) 123-45-60',
    '+79151234560',
    'varvara@example.org',
    '',
  ]);

  it('finds the buyer in any text: whole, quoted inside a longer one, a phone in any format', () => {
    expect(quotesBuyer('Zvyagintseva Varvara Ostapovna', buyer)).toBe(true);
    expect(quotesBuyer('Buyer ZVYAGINTSEVA says the zip is broken', buyer)).toBe(true);
    expect(quotesBuyer('https://carrier.example/waybill?to=Zvyagintseva&tel=%2B79151234560', buyer)).toBe(true);
    expect(quotesBuyer('call +7 915 123 45 60 before noon', buyer)).toBe(true);
    expect(quotesBuyer('Write to VARVARA@example.org', buyer)).toBe(true);
    // A short value only as a whole text: inside another word it is not the buyer.
    expect(quotesBuyer('Yan', buyer)).toBe(true);
    expect(quotesBuyer('January', buyer)).toBe(false);
    expect(quotesBuyer('cancelled', buyer)).toBe(false);
    expect(quotesBuyer('', buyer)).toBe(false);
  });

  it('empties every text of an answer that quotes the buyer, at any depth, and nothing else', () => {
    const answer = {
      id: 7,
      orderId: 12,
      status: 'requested',
      reasonNote: 'Zvyagintseva called from 8 915 123-45-60',
      order: { waybillUrl: 'https://w.example/?n=Zvyagintseva', items: [{ name: 'Coat', note: 'for Yan' }] },
      tags: ['varvara@example.org', 'gift'],
    };
    expect(scrubbedAnswer(answer, buyer)).toEqual({
      changed: true,
      answer: {
        id: 7,
        orderId: 12,
        status: 'requested',
        reasonNote: '',
        order: { waybillUrl: '', items: [{ name: 'Coat', note: 'for Yan' }] },
        tags: ['', 'gift'],
      },
    });
    const untouched = { id: 1, status: 'cancelled' };
    expect(scrubbedAnswer(untouched, buyer)).toEqual({ changed: false, answer: untouched });
  });
});
