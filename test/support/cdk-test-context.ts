/**
 * What every App a test makes skips that no assertion reads, each a cost per resource or per asset under jest:
 * - creation stack traces, debugging metadata of the cloud assembly's manifest that is never in a template. The CLI's
 *   apps record none either unless run with --debug.
 * - asset staging, a copy of each handler bundle into each synth's cloud assembly. A template names an asset by its
 *   hash, which staging does not change; the one test that reads a staged bundle turns staging back on.
 * - stack frames beyond 20. jest keeps 100, and aws-cdk-lib captures and source-maps a stack for every acknowledgement,
 *   by Validations.acknowledge, which ignores the flags above. A test's own frames are within 20.
 */
import * as cxapi from 'aws-cdk-lib/cx-api';

process.env[cxapi.CONTEXT_ENV] = JSON.stringify({
  [cxapi.DISABLE_CREATION_STACK_TRACES]: true,
  [cxapi.DISABLE_METADATA_STACK_TRACE]: true,
  [cxapi.DISABLE_ASSET_STAGING_CONTEXT]: true,
});
Error.stackTraceLimit = 20;
