import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { relyingPartyOf, type Environment } from '../config/environment';

/** Where passkeys and authenticator apps are bound: WEBAUTHN_RP_ID at PUBLIC_URL's origin. */
@Injectable()
export class RelyingParty {
  readonly id: string;
  readonly origin: string;
  readonly name = 'Commerce integration layer';

  constructor(config: ConfigService<Environment, true>) {
    ({ id: this.id, origin: this.origin } = relyingPartyOf({
      PUBLIC_URL: config.get('PUBLIC_URL', { infer: true }),
      PORT: config.get('PORT', { infer: true }),
      WEBAUTHN_RP_ID: config.get('WEBAUTHN_RP_ID', { infer: true }),
    }));
    // Browsers refuse every ceremony of an id that is not the origin's host or a suffix of it: say so at start.
    const host = new URL(this.origin).hostname;
    if (host !== this.id && !host.endsWith(`.${this.id}`)) {
      throw new Error(`WEBAUTHN_RP_ID ${this.id} must be PUBLIC_URL's host (${host}) or a suffix of it`);
    }
  }
}
