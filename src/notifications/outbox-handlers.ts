import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OrderFulfilment } from '../orders/order-fulfilment';
import { OrderLifecycle } from '../orders/order-lifecycle';
import { CarrierClient } from './carrier-client';
import { Mailer } from './mailer';
import { MailTemplates, type RenderedMail } from './mail-templates';
import { BrandsService } from '../identity/brands.service';
import { PasswordsService, type ResetRequest } from '../identity/passwords.service';
import { Outbox } from '../outbox/outbox';
import { Transactions } from '../database/transactions';
import { loggableError } from './loggable-error';
import type { ClaimedOutboxJob } from '../outbox/outbox-jobs.repository';
import { InvitationMail } from '../identity/invitation-mail';

export type ClaimedJob = ClaimedOutboxJob;

/** Runs in the transaction that marks the job done: the job's own database effects. */
export type CommitStep = (tx: EntityManager) => Promise<void>;

/**
 * What each kind of job does. `run` does the outside work (HTTP, SMTP) and returns the database
 * step to commit with the job's completion; `giveUp` runs when the retry window has passed.
 */
@Injectable()
export class OutboxHandlers {
  private readonly logger = new Logger('Outbox');

  constructor(
    private readonly orders: OrderFulfilment,
    private readonly lifecycle: OrderLifecycle,
    private readonly carrier: CarrierClient,
    private readonly mailer: Mailer,
    private readonly outbox: Outbox,
    private readonly transactions: Transactions,
    private readonly brands: BrandsService,
    private readonly passwords: PasswordsService,
    private readonly invitationMail: InvitationMail,
  ) {}

  /** `signal` aborts when the job's lease is lost: no outside call is started after that. */
  async run(job: ClaimedJob, signal: AbortSignal): Promise<CommitStep | undefined> {
    const orderId = job.payload.orderId;
    switch (job.kind) {
      case 'carrier.register_shipment': {
        const request = await this.orders.shipmentRequest(orderId);
        if (!request) return undefined;
        // A cancelled order is never registered; an order being registered cannot be cancelled.
        if (!(await this.transactions.run((tx) => this.lifecycle.beginShipment(tx, orderId)))) return undefined;
        try {
          const shipment = await this.carrier.registerShipment(request, signal);
          return (tx) => this.lifecycle.recordShipment(tx, orderId, shipment);
        } catch (error) {
          await this.lifecycle.endShipmentAttempt(orderId);
          throw error;
        }
      }
      case 'mail.order_accepted':
        return this.mailBuyer(job, signal, (data) => MailTemplates.orderAccepted(data));
      case 'mail.payment_received':
        return this.mailBuyer(job, signal, (data) => MailTemplates.paymentReceived(data));
      case 'mail.delivery_status':
        return this.mailBuyer(job, signal, (data) => MailTemplates.deliveryStatus(data, job.payload.status ?? ''));
      case 'mail.staff_paid_order':
        return this.mailStaff(job, signal, (data) => MailTemplates.staffPaidOrder(data));
      case 'mail.staff_webhook_disabled':
        return this.mailStaffOfBrand(job, signal, (brand) => {
          const about = job.payload as unknown as { endpointId: number; url: string };
          return MailTemplates.staffWebhookDisabled(brand, { id: about.endpointId, url: about.url });
        });
      case 'mail.staff_key_expiring':
        return this.mailStaffOfBrand(job, signal, (brand) =>
          MailTemplates.staffKeyExpiring(
            brand,
            job.payload as unknown as { name: string; keyHint: string; expiresAt: string; window: string },
          ),
        );
      case 'mail.password_reset':
        return this.mailPasswordReset(job, signal);
      case 'mail.staff_shipment_failed':
        return this.mailStaff(job, signal, (data) =>
          MailTemplates.staffShipmentFailed(data, (job.payload as { lastError?: string }).lastError ?? null),
        );
      case 'mail.invitation':
        return this.mailInvitation(job, signal);
    }
  }

  /** After 24 hours a shipment that could not be registered is flagged and staff are told. */
  async giveUp(tx: EntityManager, job: ClaimedJob, lastError: string): Promise<void> {
    this.logger.error(
      { jobId: job.id, kind: job.kind, orderId: job.payload.orderId, lastError: loggableError(lastError) },
      'outbox job given up',
    );
    if (job.kind !== 'carrier.register_shipment') return;
    await this.lifecycle.flagShipmentFailed(tx, job.payload.orderId);
    await this.outbox.enqueue(tx, [
      {
        kind: 'mail.staff_shipment_failed',
        payload: { orderId: job.payload.orderId, lastError },
        dedupeKey: `staff_shipment_failed:${job.payload.orderId}`,
      },
    ]);
  }

  /** A mail to the staff of the job's brand (`payload.brandId`), about something else than an order. */
  private async mailStaffOfBrand(job: ClaimedJob, signal: AbortSignal, template: (brandName: string) => RenderedMail) {
    const brandId = (job.payload as unknown as { brandId: number }).brandId;
    const brand = await this.brands.get(brandId);
    if (!brand.staffEmail) {
      this.logger.warn({ brandId, kind: job.kind }, 'brand has no staffEmail: staff mail skipped');
      return undefined;
    }
    signal.throwIfAborted();
    await this.mailer.send({
      to: brand.staffEmail,
      messageId: messageIdOf(job),
      about: { kind: job.kind, orderNumber: null },
      ...template(brand.name),
    });
    return undefined;
  }

  private async mailBuyer(job: ClaimedJob, signal: AbortSignal, template: MailTemplate) {
    const contacts = await this.orders.contacts(job.payload.orderId);
    if (!contacts?.recipientEmail) return undefined;
    signal.throwIfAborted();
    await this.mailer.send({
      to: contacts.recipientEmail,
      messageId: messageIdOf(job),
      about: { kind: job.kind, orderNumber: contacts.mail.orderNumber },
      ...template(contacts.mail),
    });
    return undefined;
  }

  private async mailStaff(job: ClaimedJob, signal: AbortSignal, template: MailTemplate) {
    const contacts = await this.orders.contacts(job.payload.orderId);
    if (!contacts?.staffEmail) {
      this.logger.warn({ orderId: job.payload.orderId, kind: job.kind }, 'brand has no staffEmail: staff mail skipped');
      return undefined;
    }
    signal.throwIfAborted();
    await this.mailer.send({
      to: contacts.staffEmail,
      messageId: messageIdOf(job),
      about: { kind: job.kind, orderNumber: contacts.mail.orderNumber },
      ...template(contacts.mail),
    });
    return undefined;
  }

  /**
   * A password reset's link (contract §19). As with an invitation, each attempt mints a new token
   * over the reset's last one (PasswordsService.resetMailFor), so the lease is checked before the
   * token is made: a worker that has lost the job would kill the link its new holder sent. Each
   * attempt's mail is another message, with a Message-ID of its own (attemptMessageIdOf).
   */
  private async mailPasswordReset(job: ClaimedJob, signal: AbortSignal): Promise<undefined> {
    signal.throwIfAborted();
    const mail = await this.passwords.resetMailFor(job.payload as unknown as ResetRequest);
    if (!mail) return undefined;
    signal.throwIfAborted();
    await this.mailer.send({
      to: mail.to,
      messageId: attemptMessageIdOf(job),
      about: { kind: job.kind, orderNumber: null },
      ...MailTemplates.passwordReset(mail),
    });
    return undefined;
  }

  /**
   * An invitation's link (contract §19), to the invited address. The token is minted and its
   * fingerprint committed just before the mail leaves (InvitationMail.prepare), so each attempt
   * of the job sends a new link and kills the one before (prepare says why); an invitation no
   * longer pending gets no mail. A worker that has lost the job's lease mints nothing: it would
   * kill the link the job's new holder sends. Each attempt's mail has a Message-ID of its own
   * (attemptMessageIdOf).
   */
  private async mailInvitation(job: ClaimedJob, signal: AbortSignal): Promise<undefined> {
    const { invitationId } = job.payload as unknown as { invitationId: number };
    signal.throwIfAborted();
    const mail = await this.invitationMail.prepare(invitationId);
    if (!mail) return undefined;
    signal.throwIfAborted();
    const { to, ...content } = mail;
    await this.mailer.send({
      to,
      messageId: attemptMessageIdOf(job),
      about: { kind: job.kind, orderNumber: null },
      ...MailTemplates.invitation(content),
    });
    return undefined;
  }
}

type MailTemplate = (data: Parameters<typeof MailTemplates.orderAccepted>[0]) => RenderedMail;

/** The same on every attempt: a receiver may drop a re-sent copy of the same text as a repeat. */
const messageIdOf = (job: ClaimedJob) => `<outbox-${job.id}@commerce-integration-layer>`;

/**
 * For the mails whose every attempt carries a new link (an invitation, a password reset): each is
 * another message, and a receiver must not drop the working link as a repeat of a dead one.
 */
const attemptMessageIdOf = (job: ClaimedJob) => `<outbox-${job.id}-${job.attempts}@commerce-integration-layer>`;
