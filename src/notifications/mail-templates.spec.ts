import type { OrderMailData } from '../orders/follow-up-data';
import { MailTemplates } from './mail-templates';

const order: OrderMailData = {
  brandName: 'Northwind <Shop>',
  orderNumber: '100042',
  hash: 'abc',
  recipientName: 'Maria & Co',
  totalKopeks: 123456,
  items: [{ article: 'LS-001', size: 'M', quantity: 2, lineTotalKopeks: 100000 }],
  deliveryCity: 'Kazan',
  pvzAddress: 'Bauman st. 1',
  trackingNumber: 'TRK1',
};

describe('mail templates', () => {
  it('render a plain-text and an HTML part of the same wording', () => {
    const mail = MailTemplates.paymentReceived(order);
    expect(mail.subject).toBe('Northwind <Shop>: payment for order 100042 received');
    expect(mail.text).toContain('Total: 1234.56 RUB');
    expect(mail.text).toContain('Tracking number: TRK1');
    expect(mail.html).toContain('Maria &amp; Co');
    expect(mail.html).not.toContain('<Shop>');
  });

  it('name the delivery status in words', () => {
    expect(MailTemplates.deliveryStatus(order, 'in_transit').subject).toBe(
      'Northwind <Shop>: order 100042: Your parcel is on its way',
    );
  });

  it('tell staff what failed', () => {
    expect(MailTemplates.staffShipmentFailed(order, 'carrier answered 503').text).toContain(
      'Last error: carrier answered 503',
    );
  });

  it('invite with the brand, the inviter, the permissions, the expiry and one link', () => {
    const link = 'https://shop.example/dashboard/#/invitation/csh_inv_abc';
    const mail = MailTemplates.invitation({
      brandName: 'Northwind <Shop>',
      inviterEmail: 'owner@northwind.example',
      permissions: ['orders.read', 'settings.manage'],
      expiresAt: '2026-12-09T10:00:00.000Z',
      link,
    });
    expect(mail.subject).toBe('Northwind <Shop>: you are invited to join the team');
    expect(mail.text).toContain('owner@northwind.example invites you to join the team of Northwind <Shop>.');
    expect(mail.text).toContain('orders.read, settings.manage');
    expect(mail.text).toContain('until 2026-12-09T10:00:00.000Z');
    expect(mail.text.match(/https?:\/\/\S+/g)).toEqual([link]);
    expect(mail.html).toContain('Northwind &lt;Shop&gt;');
  });
});
