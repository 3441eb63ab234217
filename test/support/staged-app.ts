/** An App that stages its assets in its cloud assembly, for the tests that read a staged handler bundle. */
import { App, type AppProps } from 'aws-cdk-lib';
import { DISABLE_ASSET_STAGING_CONTEXT } from 'aws-cdk-lib/cx-api';

/** `new App(props)` with asset staging on: test/support/cdk-test-context.ts turns it off for every other App. */
export function stagedApp(props: AppProps = {}): App {
  return new App({ ...props, postCliContext: { ...props.postCliContext, [DISABLE_ASSET_STAGING_CONTEXT]: false } });
}
