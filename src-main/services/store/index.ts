/** The run store: see store.ts for the lifecycle, schema.ts for the layout, bundle.ts for the file format. */
export { RunStore } from './store';
export type { EndStatus, NewRun, StoreOptions } from './store';
export { MIGRATIONS, SCHEMA_VERSION } from './schema';
export type { Migration } from './schema';
export { BUNDLE_EXTENSION, BUNDLE_FORMAT, BUNDLE_VERSION, checkBundle, decodeBundle, encodeBundle, LEGACY_BUNDLE_VERSION, MAX_EXPANDED_BYTES, MAX_LEGACY_BYTES } from './bundle';
