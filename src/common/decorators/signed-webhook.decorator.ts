import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorText } from '../errors/error-texts';
import { SIGNED_WEBHOOK, type WebhookFlow } from './auth-metadata';

/** A route called by a sender who signs its requests (X-Signature) instead of sending a key. */
export const SignedWebhook = (flow: WebhookFlow) =>
  applyDecorators(
    SetMetadata(SIGNED_WEBHOOK, flow),
    ApiHeader({
      name: 'X-Signature',
      required: true,
      description: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">',
    }),
    ApiUnauthorizedResponse({ description: ErrorText.invalidSignature }),
  );
