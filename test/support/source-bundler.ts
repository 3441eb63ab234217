/**
 * Every test file synthesizes the handlers as the app does: from the bundles npm test prebuilt
 * (STORAGE_SERVER_HANDLER_BUNDLES, test/support/global-setup.ts), or, where a test unsets that, from the sources
 * through the app's esbuild cache (bin/handler-bundle.ts), which the library never loads by itself.
 */
import { useCachedHandlerBundles } from '../../bin/handler-bundle';

useCachedHandlerBundles();
