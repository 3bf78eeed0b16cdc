import { getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import { EventResponse } from '../domain-events/dto/event.responses';
import { EVENT_FAMILIES } from '../domain-events/event-types';
import { EVENT_DATA_CLASSES, WebhookMessageBody, WebhookTestData } from './dto/webhook-message.body';
import { TEST_EVENT_TYPE } from './event-types';

type PathItemObject = OpenAPIObject['paths'][string];
type ParameterObject = Exclude<NonNullable<PathItemObject['parameters']>[number], { $ref: string }>;
type SchemaObject = Exclude<NonNullable<NonNullable<OpenAPIObject['components']>['schemas']>[string], { $ref: string }>;

/** The classes the webhook messages are built from: models of the document. */
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

/**
 * The messages the service sends (contract §10, §16) as `x-webhooks` (an OpenAPI 3.0 document):
 * one entry per event type, its body WebhookMessageBody with the type's data class, the classes
 * the statements build the data from. The events API's `data` is described by the same classes
 * (domain-events cannot name them itself: their modules depend on it).
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
  const event = schemas[EventResponse.name] as SchemaObject;
  event.properties = {
    ...event.properties,
    data: {
      ...(event.properties?.data as SchemaObject),
      type: undefined,
      additionalProperties: undefined,
      oneOf: Object.values(EVENT_DATA_CLASSES).map(ref),
    },
  };
  return document;
}

function message(body: SchemaObject, type: string, data: abstract new () => unknown, note: string): PathItemObject {
  return {
    post: {
      operationId: `webhook:${type}`,
      summary: `The ${type} message`,
      description: `A POST to the endpoint's URL, signed per Standard Webhooks. ${note}`,
      parameters: HEADERS,
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
