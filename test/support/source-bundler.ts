/**
 * Every test file synthesizes the handlers as the app does: from the bundles npm test prebuilt, by
 * STORAGE_SERVER_HANDLER_BUNDLES in test/support/global-setup.ts. Where a test unsets that, they come from the sources
 * through the app's esbuild cache in bin/handler-bundle.ts, which the library never loads by itself.
 */
import { useCachedHandlerBundles } from '../../bin/handler-bundle';

useCachedHandlerBundles();
