import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Environment } from '../config/environment';
import type { ShipmentRequest } from '../orders/follow-up-data';

export interface Shipment {
  uuid: string;
  trackingNumber: string;
}

/** The carrier's HTTP API (contract §7). Failures throw; the outbox retries them. */
@Injectable()
export class CarrierClient {
  private readonly baseUrl?: string;
  private readonly token?: string;
  private readonly timeoutMs: number;

  constructor(config: ConfigService<Environment, true>) {
    this.baseUrl = config.get('CARRIER_API_URL', { infer: true })?.replace(/\/+$/, '');
    this.token = config.get('CARRIER_API_TOKEN', { infer: true });
    this.timeoutMs = config.get('CARRIER_TIMEOUT_MS', { infer: true });
  }

  /**
   * The order number is sent as the idempotency key: if we crash after the carrier registered
   * the shipment but before we stored its answer, the retry gets the same shipment back.
   */
  async registerShipment(request: ShipmentRequest, signal?: AbortSignal): Promise<Shipment> {
    if (!this.baseUrl) throw new Error('CARRIER_API_URL is not set');
    const response = await fetch(`${this.baseUrl}/shipments`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Idempotency-Key': request.orderNumber,
        ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
      },
      body: JSON.stringify(request),
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(this.timeoutMs)])
        : AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`carrier answered ${response.status}: ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as Partial<Shipment>;
    if (
      typeof body.uuid !== 'string' ||
      !body.uuid ||
      typeof body.trackingNumber !== 'string' ||
      !body.trackingNumber
    ) {
      throw new Error('carrier answered 201 without uuid and trackingNumber');
    }
    return { uuid: body.uuid.slice(0, 64), trackingNumber: body.trackingNumber.slice(0, 64) };
  }
}
