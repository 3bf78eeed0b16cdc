import { Injectable } from '@nestjs/common';
import type { BrandContext } from '../common/context/request-context';
import { BrandOwnership } from '../security-journal/brand-ownership';
import { IntegrationKeysRepository } from './integration-keys.repository';

/** For modules that keep something per key (the request log): whose key an id names. */
@Injectable()
export class IntegrationKeyOwners {
  constructor(
    private readonly keys: IntegrationKeysRepository,
    private readonly ownership: BrandOwnership,
  ) {}

  /** The key of the request's brand; another brand's is a journaled 403, none a 404. */
  async assertOwned(ctx: BrandContext, keyId: number): Promise<{ id: number; brandId: number }> {
    return this.ownership.assertOwned(ctx, await this.keys.owner(keyId), { resource: 'integration_key', id: keyId });
  }
}
