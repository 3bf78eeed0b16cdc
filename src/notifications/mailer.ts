import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createTransport, type Transporter } from 'nodemailer';
import type { Environment } from '../config/environment';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * Stable per outbox job, so a receiver can recognise a re-sent message; per attempt for a mail
   * whose every attempt carries a new link (OutboxHandlers says which).
   */
  messageId: string;
  /** What the mail is about, for the log: its kind and order number, never its recipient or text. */
  about: { kind: string; orderNumber: string | null };
}

/** Real SMTP at SMTP_URL; without it, each mail is logged by kind and order number instead. */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly transport?: Transporter;
  private readonly from: string;

  constructor(config: ConfigService<Environment, true>) {
    const url = config.get('SMTP_URL', { infer: true });
    this.from = config.get('MAIL_FROM', { infer: true });
    if (url) {
      const timeouts = 'connectionTimeout=10000&greetingTimeout=10000&socketTimeout=20000';
      this.transport = createTransport(url.includes('?') ? `${url}&${timeouts}` : `${url}?${timeouts}`);
    }
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      // Its recipient and text name the buyer (contract §17): logged by kind and order number only.
      this.logger.log(
        { kind: mail.about.kind, orderNumber: mail.about.orderNumber, messageId: mail.messageId },
        'mail (SMTP_URL not set)',
      );
      return;
    }
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: mail.messageId,
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
