import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity, ApiUnauthorizedResponse, type SecuritySchemeObject } from '@nestjs/swagger';
import { ErrorText } from '../errors/error-texts';
import { SIGNED_WEBHOOK, type WebhookFlow } from './auth-metadata';

/** The document's security scheme of a signed flow's routes (setup-app adds one per flow). */
export const signatureScheme = (flow: WebhookFlow): { name: string; scheme: SecuritySchemeObject } => ({
  name: `${flow}Signature`,
  scheme: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Signature',
    description: `The ${flow === 'payment' ? 'bank' : 'carrier'}'s signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> with the flow's shared secret`,
  },
});

/** A route called by a sender who signs its requests (X-Signature) instead of sending a key. */
export const SignedWebhook = (flow: WebhookFlow) =>
  applyDecorators(
    SetMetadata(SIGNED_WEBHOOK, flow),
    ApiSecurity(signatureScheme(flow).name),
    ApiUnauthorizedResponse({ description: ErrorText.invalidSignature }),
  );
