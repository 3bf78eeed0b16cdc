import { getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import { EVENT_FAMILIES } from '../events-api/event-families';
import { EventResponse } from '../events-api/dto/event.responses';
import { EVENT_DATA_CLASSES } from './dto/event-data-classes';
import { WebhookMessageBody, WebhookTestData } from './dto/webhook-message.body';
import { TEST_EVENT_TYPE } from './event-types';

type PathItemObject = OpenAPIObject['paths'][string];
type ParameterObject = Exclude<NonNullable<PathItemObject['parameters']>[number], { $ref: string }>;
type SchemaObject = Exclude<NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string], { $ref: string }>;

/** Registered as the document's models, so that the entries below can refer to them. */
export const WEBHOOK_MESSAGE_MODELS = [WebhookMessageBody, WebhookTestData, ...Object.values(EVENT_DATA_CLASSES)];

const HEADERS: ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: { type: 'string', example: 'msg_2b7f0c4e9d1a4f6b8c3e5a7d9f1b3c5e' },
    description: 'The message id: the same on every retry and for every endpoint that gets the event; dedupe by it',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: { type: 'integer' },
    description: 'Unix seconds of this attempt',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description:
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the base64-decoded bytes after `whsec_`; during a rotation several, space-separated, the new one first',
  },
];

/** How a receiver knows a message is the service's: the Standard Webhooks signature of its endpoint's secret. */
const SIGNATURE_SCHEME = 'webhookSignature';
const SIGNATURE = {
  type: 'apiKey' as const,
  in: 'header',
  name: 'webhook-signature',
  description:
    'Standard Webhooks: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> with the endpoint secret (whsec_…); several, space-separated, while a secret rotates',
};

/**
 * The messages the service sends (contract §10, §16) as `x-webhooks` (an OpenAPI 3.0 document):
 * one entry per event type, its body WebhookMessageBody with the type's data class, the classes
 * the statements build the data from; and the events API's events by the same classes.
 */
export function describeWebhookMessages(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const body = schemas[WebhookMessageBody.name] as SchemaObject;
  const messages: Record<string, PathItemObject> = {};
  for (const family of EVENT_FAMILIES) {
    for (const type of family.types) {
      messages[type] = message(
        body,
        type,
        EVENT_DATA_CLASSES[family.prefix],
        `Readable too by GET /events with ${family.permission}.`,
      );
    }
  }
  messages[TEST_EVENT_TYPE] = message(
    body,
    TEST_EVENT_TYPE,
    WebhookTestData,
    'Sent by POST …/webhook-endpoints/:endpointId/test, to that endpoint only.',
  );
  Object.assign(document, { 'x-webhooks': messages });
  document.components = {
    ...document.components,
    securitySchemes: { ...document.components?.securitySchemes, [SIGNATURE_SCHEME]: SIGNATURE },
  };
  describeEventsByFamily(schemas);
  return document;
}

/**
 * An event of the events API (EventResponse, contract §16) is one of a variant per family: its
 * `type` among the family's types and its `data` the family's class, told apart by `type`. The
 * variants are made here because domain-events cannot name the classes (their modules depend on it).
 */
function describeEventsByFamily(schemas: Record<string, SchemaObject | { $ref: string }>): void {
  const event = schemas[EventResponse.name] as SchemaObject | undefined;
  if (!event?.properties) throw new Error(`the OpenAPI document has no ${EventResponse.name} to describe`);
  const mapping: Record<string, string> = {};
  const variants = EVENT_FAMILIES.map((family) => {
    const name = `${family.prefix[0].toUpperCase()}${family.prefix.slice(1)}${EventResponse.name}`;
    schemas[name] = {
      ...event,
      properties: {
        ...event.properties,
        type: { type: 'string', enum: [...family.types] },
        data: ref(EVENT_DATA_CLASSES[family.prefix]),
      },
    };
    for (const type of family.types) mapping[type] = `#/components/schemas/${name}`;
    return { $ref: `#/components/schemas/${name}` };
  });
  schemas[EventResponse.name] = {
    description: event.description,
    oneOf: variants,
    discriminator: { propertyName: 'type', mapping },
  };
}

function message(body: SchemaObject, type: string, data: abstract new () => unknown, note: string): PathItemObject {
  return {
    post: {
      operationId: `webhook:${type}`,
      summary: `The ${type} message`,
      description: `A POST to the endpoint's URL, signed per Standard Webhooks. ${note}`,
      parameters: HEADERS,
      security: [{ [SIGNATURE_SCHEME]: [] }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              ...body,
              properties: { ...body.properties, type: { type: 'string', enum: [type] }, data: ref(data) },
            },
          },
        },
      },
      responses: {
        '2XX': {
          description: 'Received. Anything else, or no answer within WEBHOOK_TIMEOUT_MS, is retried on the schedule',
        },
      },
    },
  };
}

const ref = (model: abstract new () => unknown) => ({ $ref: getSchemaPath(model) });
