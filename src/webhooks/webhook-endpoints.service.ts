import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { BrandContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import type { Environment } from '../config/environment';
import { Transactions } from '../database/transactions';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { allowedAddresses } from './address-guard';
import type { CreateWebhookEndpointDto, UpdateWebhookEndpointDto } from './dto/webhook-endpoint.dto';
import type {
  CreatedWebhookEndpointResponse,
  WebhookDeliveryListResponse,
  WebhookEndpointResponse,
} from './dto/webhook.responses';
import { newSigningSecret } from './message-signature';
import { DeliveryWake } from './delivery-wake';
import { SecretBox } from '../common/secrets/secret-box';
import { WebhookDeliveriesRepository, type DeliveryStatus } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository, type EndpointRow } from './webhook-endpoints.repository';

const toView = (row: EndpointRow): WebhookEndpointResponse => ({
  id: row.id,
  url: row.url,
  eventTypes: row.event_types,
  description: row.description,
  enabled: row.enabled,
  createdAt: row.created_at.toISOString(),
});

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/** Removes repeats; `*` alone stands for every type. */
const normalizeTypes = (types: string[]) => (types.includes('*') ? ['*'] : [...new Set(types)]);

/**
 * A brand's webhook endpoints (contract §10): secrets generated here, sealed at rest, shown only
 * through `secret`; every change journaled without them.
 */
@Injectable()
export class WebhookEndpointsService {
  private readonly allowPrivate: boolean;

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
    private readonly ownership: BrandOwnership,
    private readonly box: SecretBox,
    private readonly wake: DeliveryWake,
    config: ConfigService<Environment, true>,
  ) {
    this.allowPrivate = config.get('WEBHOOK_ALLOW_PRIVATE_URLS', { infer: true });
  }

  async create(ctx: BrandContext, input: CreateWebhookEndpointDto): Promise<CreatedWebhookEndpointResponse> {
    await this.assertReachable(input.url);
    const secret = newSigningSecret();
    const row = await this.transactions.run(async (tx) => {
      const created = await this.endpoints.insert(tx, {
        brandId: ctx.brandId,
        url: input.url,
        eventTypes: normalizeTypes(input.eventTypes),
        description: input.description?.trim() || null,
        secretSealed: this.box.seal(secret),
      });
      await this.journal.recordWith(tx, ctx, {
        type: 'webhook_endpoint_created',
        brandId: ctx.brandId,
        details: { endpointId: created.id, url: created.url, eventTypes: created.event_types },
      });
      return created;
    });
    return { ...toView(row), secret };
  }

  async list(ctx: BrandContext): Promise<WebhookEndpointResponse[]> {
    return (await this.endpoints.ofBrand(ctx.brandId)).map(toView);
  }

  async get(ctx: BrandContext, endpointId: number): Promise<WebhookEndpointResponse> {
    return toView(await this.owned(ctx, endpointId));
  }

  async secret(ctx: BrandContext, endpointId: number): Promise<{ secret: string }> {
    return { secret: this.box.open((await this.owned(ctx, endpointId)).secret_sealed) };
  }

  async update(
    ctx: BrandContext,
    endpointId: number,
    input: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointResponse> {
    await this.owned(ctx, endpointId);
    if (input.url !== undefined) await this.assertReachable(input.url);
    await this.transactions.run(async (tx) => {
      const current = (await this.endpoints.lockById(tx, endpointId))!;
      const next = {
        url: input.url ?? current.url,
        eventTypes: input.eventTypes ? normalizeTypes(input.eventTypes) : current.event_types,
        description: input.description !== undefined ? input.description.trim() || null : current.description,
        enabled: input.enabled ?? current.enabled,
      };
      await this.endpoints.update(tx, endpointId, next);
      await this.journal.recordWith(tx, ctx, {
        type: 'webhook_endpoint_updated',
        brandId: ctx.brandId,
        details: { endpointId, ...next },
      });
    });
    return this.get(ctx, endpointId);
  }

  /** The endpoint and its deliveries, pending ones included, go. */
  async delete(ctx: BrandContext, endpointId: number): Promise<void> {
    const row = await this.owned(ctx, endpointId);
    await this.transactions.run(async (tx) => {
      await this.endpoints.delete(tx, endpointId);
      await this.journal.recordWith(tx, ctx, {
        type: 'webhook_endpoint_deleted',
        brandId: ctx.brandId,
        details: { endpointId, url: row.url },
      });
    });
  }

  /** A new secret signs from now; the old one signs beside it until it expires. */
  async rotate(ctx: BrandContext, endpointId: number, oldSecretExpiresInSeconds = 86_400): Promise<{ secret: string }> {
    await this.owned(ctx, endpointId);
    const secret = newSigningSecret();
    const oldExpiresAt = new Date(Date.now() + oldSecretExpiresInSeconds * 1000);
    await this.transactions.run(async (tx) => {
      await this.endpoints.lockById(tx, endpointId);
      await this.endpoints.rotate(tx, endpointId, this.box.seal(secret), oldExpiresAt);
      await this.journal.recordWith(tx, ctx, {
        type: 'webhook_endpoint_secret_rotated',
        brandId: ctx.brandId,
        details: { endpointId, oldSecretExpiresAt: oldExpiresAt.toISOString() },
      });
    });
    return { secret };
  }

  async sendTest(ctx: BrandContext, endpointId: number): Promise<{ messageId: string }> {
    await this.owned(ctx, endpointId);
    const messageId = await this.transactions.run((tx) =>
      this.deliveries.insertTestMessage(tx, ctx.brandId, endpointId),
    );
    this.wake.committed();
    return { messageId };
  }

  async deliveriesOf(
    ctx: BrandContext,
    endpointId: number,
    query: { status?: DeliveryStatus; before?: string; limit: number },
  ): Promise<WebhookDeliveryListResponse> {
    await this.owned(ctx, endpointId);
    const rows = await this.deliveries.page(endpointId, query);
    return {
      items: rows.map((row) => ({
        ...row,
        attempts: row.attempts.map((a) => ({ ...a, at: iso(a.at)! })),
        nextAttemptAt: iso(row.nextAttemptAt),
        createdAt: iso(row.createdAt)!,
      })),
    };
  }

  async retry(ctx: BrandContext, endpointId: number, messageId: string): Promise<void> {
    await this.owned(ctx, endpointId);
    if (!(await this.deliveries.retryNow(endpointId, messageId))) throw AppError.notFound();
    this.wake.committed();
  }

  private async owned(ctx: BrandContext, endpointId: number): Promise<EndpointRow> {
    const row = await this.endpoints.byId(endpointId);
    return this.ownership.assertOwned(ctx, row ? { ...row, brandId: row.brand_id } : null, {
      resource: 'webhook_endpoint',
      id: endpointId,
    });
  }

  /** Contract §10: no endpoint that is or resolves to an address inside our network. */
  private async assertReachable(url: string): Promise<void> {
    try {
      await allowedAddresses(new URL(url).hostname, this.allowPrivate);
    } catch (error) {
      throw AppError.badRequest([ErrorText.webhookUrlRefused((error as Error).message)]);
    }
  }
}
