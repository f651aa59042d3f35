/**
 * The desktop build's store, checked without Electron: `node out/main/store-check.js <file>` opens
 * (creating and migrating) the database at <file> through the same bundled store code the main
 * process uses, lists its runs and presets, closes it, and exits 0. It proves that the built main
 * bundle loads better-sqlite3's Node-API binary and leaves the process cleanly on the Node that runs
 * it (CI runs it under Node 24; a native module built for one Node ABI used to abort at exit).
 */
import { RunStore, SCHEMA_VERSION } from '../services/store';

function main(argv: string[]): number {
  const file = argv[0];
  if (!file) {
    process.stderr.write('usage: node out/main/store-check.js <database file>\n');
    return 2;
  }
  const store = RunStore.open(file, { appVersion: 'store-check' });
  try {
    if (store.schemaVersion !== SCHEMA_VERSION) throw new Error(`schema version ${store.schemaVersion}, expected ${SCHEMA_VERSION}`);
    const runs = store.listRuns({}).total;
    const presets = store.listPresets().length;
    process.stdout.write(
      `store-check: ${file} at schema version ${store.schemaVersion} (migrated from ${store.migratedFrom}), ${runs} run(s), ${presets} preset(s); Node ${process.versions.node}, modules ABI ${process.versions.modules}\n`,
    );
  } finally {
    store.close();
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
