/**
 * Every App a test makes records no creation stack traces: debugging metadata of the cloud assembly's manifest,
 * never in a template, that costs a captured and source-mapped stack per resource under jest (about a seventh of a
 * guard-matrix file's time). The CLI's apps record none either unless run with --debug.
 */
import * as cxapi from 'aws-cdk-lib/cx-api';

process.env[cxapi.CONTEXT_ENV] = JSON.stringify({
  [cxapi.DISABLE_CREATION_STACK_TRACES]: true,
  [cxapi.DISABLE_METADATA_STACK_TRACE]: true,
});
