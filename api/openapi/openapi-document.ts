import { ERROR_CODES } from '../../shared/core/errors.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../../shared/core/service.js';
import type { RouteDefinition } from '../routing/route-catalog.js';
import type { JsonSchema } from '../../shared/core/json-schema.js';
import { isBotV1 } from '../middleware/error-handler.js';
import { SIGNATURE_HEADER } from '../../shared/push/webhook-signing.js';
import { RESPONSE_COMPONENTS } from './components.js';
import { describeFields, toJsonSchema, type JoiDescription } from './joi-to-json-schema.js';

const errorEnvelope = {
  type: 'object',
  properties: {
    ok: { const: false },
    error: {
      type: 'object',
      properties: { code: { type: 'string', enum: Object.keys(ERROR_CODES) }, message: { type: 'string' } },
      required: ['code', 'message'],
    },
    ts: { type: 'integer', description: 'epoch milliseconds' },
  },
  required: ['ok', 'error', 'ts'],
};

/** Bot v1 kept the original's flat error body: { error: code, message, ...details }. */
const flatError = {
  type: 'object',
  properties: { error: { type: 'string', enum: Object.keys(ERROR_CODES) }, message: { type: 'string' } },
  required: ['error', 'message'],
};

/** v2 answers a v1 body without its ok, as data. */
function withoutOk(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties?.ok) return schema;
  const { ok: _ok, ...rest } = properties;
  return { ...schema, properties: rest, required: ((schema.required as string[] | undefined) ?? []).filter((name) => name !== 'ok') };
}

function successSchema(route: RouteDefinition): JsonSchema | undefined {
  if (!route.response) return undefined;
  if (route.style === 'bare') return route.response;
  return {
    type: 'object',
    properties: { ok: { const: true }, data: withoutOk(route.response), ts: { type: 'integer', description: 'epoch milliseconds' } },
    required: ['ok', 'data', 'ts'],
  };
}

function validationCodes(route: RouteDefinition): string[] {
  const schemas = [route.query, route.body].filter((schema) => schema !== undefined);
  const fieldCodes = schemas.flatMap((schema) =>
    describeFields(schema.describe() as JoiDescription).flatMap((field) => (field.schema['x-error-codes'] as string[] | undefined) ?? []),
  );
  return schemas.length > 0 ? ['missing_param', 'invalid_param', ...fieldCodes] : [];
}

function operation(route: RouteDefinition): Record<string, unknown> {
  const parameters = route.query
    ? describeFields(route.query.describe() as JoiDescription).map((field) => ({
        name: field.name,
        in: 'query',
        required: field.required,
        description: field.schema.description,
        schema: field.schema,
        ...(route.example?.query?.[field.name] !== undefined ? { example: route.example.query[field.name] } : {}),
      }))
    : [];
  const success = route.style === 'envelope' ? { ok: true, data: route.example?.response, ts: 1_767_225_600_000 } : route.example?.response;
  const authCodes = route.keyed ? ['missing_api_key', 'bad_api_key', 'revoked_key'] : [];
  const schema = successSchema(route);
  const errorCodes = [
    ...new Set([...validationCodes(route), ...authCodes, ...(route.errors ?? []), 'rate_limited', 'unavailable', 'internal']),
  ];
  const op: Record<string, unknown> = {
    operationId: `${route.method}${route.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    parameters,
    ...(route.keyed ? { security: [{ apiKey: [] }] } : {}),
    responses: {
      '200': {
        description: route.style === 'envelope' ? 'Success, in the { ok, data, ts } envelope' : 'Success, the bare result',
        content: {
          [route.mediaType ?? 'application/json']: {
            ...(schema ? { schema } : {}),
            ...(success !== undefined ? { example: success } : {}),
          },
        },
      },
      default: {
        description: `Failure. Codes: ${errorCodes.join(', ')}`,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${isBotV1(route.path) ? 'BotV1Error' : 'Error'}` } } },
      },
    },
  };
  if (route.body) {
    op.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: toJsonSchema(route.body.describe() as JoiDescription),
          ...(route.example?.body ? { example: route.example.body } : {}),
        },
      },
    };
  }
  return op;
}

/** The OpenAPI 3.1 document, generated from the same route definitions and Joi schemas that serve requests. */
export function buildOpenApiDocument(routes: RouteDefinition[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const openApiPath = route.path.replace(/:(\w+)/g, '{$1}');
    paths[openApiPath] ??= {};
    paths[openApiPath][route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${SERVICE_NAME} API`,
      version: SERVICE_VERSION,
      description:
        'Keyless crypto market data, calculators and regional quotes, and the keyed paper-trading API. ' +
        'Timestamps are epoch milliseconds. Keyless calls: 60 per minute per IP; X-API-Key meters against the key plan.',
    },
    servers: [{ url: '/' }],
    paths,
    webhooks: {
      event: {
        post: {
          summary: `What a webhook receives: one POST per event, signed (${SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 of the raw body>)`,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookDelivery' } } } },
          responses: { '200': { description: 'Any 2xx counts as delivered' } },
        },
      },
    },
    components: {
      schemas: { ...RESPONSE_COMPONENTS, Error: errorEnvelope, BotV1Error: flatError },
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
  };
}
