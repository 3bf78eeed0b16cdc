import type { InvitationMailData } from '../identity/invitation-mail';
import type { OrderMailData } from '../orders/follow-up-data';
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const DELIVERY_STATUS_TEXT: Record<string, string> = {
  registered: 'The carrier has registered your shipment',
  accepted: 'The carrier has accepted your parcel',
  in_transit: 'Your parcel is on its way',
  arrived: 'Your parcel has arrived at the pickup point',
  delivered: 'Your parcel has been delivered',
  not_delivered: 'The carrier could not deliver your parcel',
  returned: 'Your parcel is being returned to the shop',
};

const rub = (kopeks: number) => `${Math.floor(kopeks / 100)}.${String(kopeks % 100).padStart(2, '0')} RUB`;

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Text lines become the plain part and, escaped, the HTML part: one wording, two formats. */
function render(subject: string, lines: string[]): RenderedMail {
  const html = `<!doctype html><html><body style="font-family:sans-serif">${lines
    .map((line) => (line === '' ? '<br>' : `<p>${escape(line)}</p>`))
    .join('')}</body></html>`;
  return { subject, text: lines.join('\n'), html };
}

function orderLines(order: OrderMailData): string[] {
  return [
    ...order.items.map(
      (item) => `  ${item.article}, size ${item.size} × ${item.quantity}: ${rub(item.lineTotalKopeks)}`,
    ),
    `Total: ${rub(order.totalKopeks)}`,
    `Delivery: ${[order.deliveryCity, order.pvzAddress].filter(Boolean).join(', ') || 'not specified'}`,
  ];
}

export const MailTemplates = {
  orderAccepted: (order: OrderMailData) =>
    render(`${order.brandName}: order ${order.orderNumber} accepted`, [
      `Hello, ${order.recipientName}!`,
      `We have received your order ${order.orderNumber}.`,
      ...orderLines(order),
      '',
      `Order reference: ${order.hash}`,
    ]),

  paymentReceived: (order: OrderMailData) =>
    render(`${order.brandName}: payment for order ${order.orderNumber} received`, [
      `Hello, ${order.recipientName}!`,
      `Thank you: the payment for order ${order.orderNumber} has been received. We are preparing your parcel.`,
      ...orderLines(order),
      order.trackingNumber
        ? `Tracking number: ${order.trackingNumber}`
        : 'You will receive the tracking number as soon as the carrier registers the parcel.',
      '',
      `Order reference: ${order.hash}`,
    ]),

  deliveryStatus: (order: OrderMailData, status: string) =>
    render(`${order.brandName}: order ${order.orderNumber}: ${DELIVERY_STATUS_TEXT[status] ?? status}`, [
      `Hello, ${order.recipientName}!`,
      `${DELIVERY_STATUS_TEXT[status] ?? `Delivery status: ${status}`}.`,
      ...(order.trackingNumber ? [`Tracking number: ${order.trackingNumber}`] : []),
      '',
      `Order reference: ${order.hash}`,
    ]),

  staffPaidOrder: (order: OrderMailData) =>
    render(`New paid order ${order.orderNumber}`, [
      `Order ${order.orderNumber} for ${order.recipientName} has been paid.`,
      ...orderLines(order),
      'The shipment is being registered with the carrier.',
    ]),

  staffShipmentFailed: (order: OrderMailData, lastError: string | null) =>
    render(`Shipment for order ${order.orderNumber} could not be registered`, [
      `The carrier did not register the shipment for paid order ${order.orderNumber} within 24 hours of retries.`,
      `Last error: ${lastError ?? 'unknown'}`,
      'Please register the shipment by hand and enter the tracking number on the order.',
      ...orderLines(order),
    ]),

  staffKeyExpiring: (brandName: string, key: { name: string; keyHint: string; expiresAt: string; window: string }) =>
    render(`${brandName}: the integration key ${key.name} expires ${key.window === '1d' ? 'tomorrow' : 'in a week'}`, [
      `The integration key "${key.name}" (${key.keyHint}) expires at ${key.expiresAt}.`,
      'Roll it in the admin area before then (the new key keeps its permissions and addresses) and give the new key to the integration.',
    ]),

  staffWebhookDisabled: (brandName: string, endpoint: { id: number; url: string }) =>
    render(`${brandName}: webhook endpoint ${endpoint.id} was disabled`, [
      `The webhook endpoint ${endpoint.url} (id ${endpoint.id}) answered nothing but failures for too long and has been disabled.`,
      'Its deliveries wait; fix the receiver, then enable the endpoint again in the admin area (PATCH … {"enabled": true}).',
    ]),

  /** Only the link it is sent for (contract §19): no password, no other token. */
  passwordReset: (reset: { link: string; expiresAt: Date }) =>
    render('Reset your password', [
      'Someone asked to reset the password of your account. If it was you, open this link and choose a new password:',
      reset.link,
      `The link works once, until ${reset.expiresAt.toISOString()}. Every session of the account ends when the password is set.`,
      'If it was not you, ignore this mail: your password stays as it is.',
    ]),

  /** Contract §19: the mail holds the invitation's link and no other. */
  invitation: (invitation: Omit<InvitationMailData, 'to'>) =>
    render(`${invitation.brandName}: you are invited to join the team`, [
      `${invitation.inviterEmail ?? 'An administrator'} invites you to join the team of ${invitation.brandName}.`,
      `Your permissions there: ${invitation.permissions.join(', ')}.`,
      `Open this link to accept the invitation. It works once, until ${invitation.expiresAt}:`,
      invitation.link,
      '',
      'If you did not expect this invitation, ignore this mail: nothing changes unless the link is used.',
    ]),
};
