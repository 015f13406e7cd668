// Writes the test corpus: `node tests/corpus/generate.mjs OUTDIR` runs each design's generator
// (items built by the modelling library itself, with a frozen clock and seeded ids) and writes
// OUTDIR/<design>.json = {design, library, table: CreateTable input, items: [DynamoDB JSON]}.
// The libraries come from .cache/corpus-node (scripts/install-corpus-tools.sh).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node tests/corpus/generate.mjs OUTDIR');
  process.exit(2);
}

const designs = ['electrodb_task_manager', 'toolbox_shop', 'onetable_game'];
mkdirSync(outDir, { recursive: true });
for (const name of designs) {
  const { generate } = await import(`./${name}.mjs`);
  const design = await generate();
  if (design.design !== name) throw new Error(`generator '${name}' named its design '${design.design}'`);
  writeFileSync(join(outDir, `${name}.json`), JSON.stringify(design, null, 1) + '\n');
  console.log(`${name}: ${design.items.length} items from ${design.library}`);
}
