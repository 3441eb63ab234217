import Ajv from 'ajv';

/**
 * The CloudWatch agent's rules for the parts of its configuration the server uses, restated from the agent's own JSON
 * schema: aws/amazon-cloudwatch-agent, translator/config/schema.json at 01c5802b, draft-04. The agent checks a
 * configuration against it before it translates it, and refuses one that fails, so the server publishes nothing. It is
 * restated, not copied, because the schema file is not in any registry this project's tests can reach. The Go module
 * proxy refuses the agent's module, and neither GitHub nor the agent's S3 bucket is reachable from CI. So the
 * definitions below name the schema's definition each one mirrors.
 *
 * Where the agent's schema is open, as the root and `agent` take any other key, this one is closed to the keys the
 * agent's documentation names. So a misspelt key fails here although the agent would ignore it.
 */
const interval = { type: 'integer', minimum: 1, maximum: 172800 }; // timeIntervalDefinition
const intervalWithZero = { type: 'integer', minimum: 0, maximum: 172800 }; // timeIntervalWithZeroDefinition
const text = (min: number, max: number): object => ({ type: 'string', minLength: min, maxLength: max });

// generalAppendDimensionsDefinition
const appendDimensions = { type: 'object', maxProperties: 30, additionalProperties: text(1, 1024) };

// metricsDefinition/definitions/metricsMeasurementDefinition
const measurement = {
  type: 'array',
  uniqueItems: true,
  items: {
    oneOf: [
      text(1, 255),
      { type: 'object', properties: { name: text(1, 255), rename: text(1, 255), unit: text(1, 256) } },
    ],
  },
};

// metricsDefinition/definitions/basicMetricDefinition
const basicMetric = {
  type: 'object',
  properties: { metrics_collection_interval: interval, append_dimensions: appendDimensions, measurement },
  required: ['measurement'],
};

// metricsDefinition/definitions/basicResourcesDefinition
const resources = { type: 'object', properties: { resources: { type: 'array', items: text(1, 4096), maxItems: 256 } } };

// metricsDefinition/definitions/statsdDefinitions, closed in the agent's schema too
const statsd = {
  type: 'object',
  properties: {
    allowed_pending_messages: { type: 'integer', minimum: 1, maximum: 2147483647 },
    service_address: text(1, 255),
    metrics_collection_interval: interval,
    metrics_aggregation_interval: intervalWithZero,
    metric_separator: text(1, 255),
    drop_original_metrics: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
    'service.name': text(1, 4096),
    'deployment.environment': text(1, 4096),
  },
  additionalProperties: false,
};

/** The restated schema, in JSON Schema draft-07, which keeps draft-04's meaning for every keyword used here. */
export const AGENT_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    // agentDefinition, closed here to the keys the agent's documentation names; the agent's schema is open.
    agent: {
      type: 'object',
      properties: {
        metrics_collection_interval: interval,
        logfile: { type: 'string', maxLength: 4096 },
        region: text(1, 64),
        debug: { type: 'boolean' },
        omit_hostname: { type: 'boolean' },
        run_as_user: text(1, 255),
      },
      additionalProperties: false,
    },
    // metricsDefinition, closed in the agent's schema too: metrics_collected is required, with at least one plugin.
    metrics: {
      type: 'object',
      properties: {
        namespace: text(1, 255),
        append_dimensions: { type: 'object', maxProperties: 30, additionalProperties: text(1, 1024) },
        force_flush_interval: interval,
        metrics_collected: {
          type: 'object',
          minProperties: 1,
          properties: {
            mem: basicMetric,
            diskio: { allOf: [basicMetric, resources] },
            statsd,
          },
          additionalProperties: basicMetric,
        },
      },
      required: ['metrics_collected'],
      additionalProperties: false,
    },
  },
  required: ['agent', 'metrics'],
  additionalProperties: false,
} as const;

const validate = new Ajv({ allErrors: true, strict: true }).compile(AGENT_CONFIG_SCHEMA);

/** What the restated schema finds wrong with a configuration, the agent's JSON text; none when it is valid. */
export function agentConfigErrors(json: string): string[] {
  const config: unknown = JSON.parse(json);
  if (validate(config)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
