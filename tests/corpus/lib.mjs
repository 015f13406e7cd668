// Shared by the corpus generators: where the pinned libraries live, a frozen clock, a seeded
// PRNG for ids, and DynamoDB JSON for items a library built as plain JS values.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The install made by scripts/install-corpus-tools.sh (or CORPUS_NODE_DIR). */
export const nodeDir = process.env.CORPUS_NODE_DIR
  ? resolve(process.env.CORPUS_NODE_DIR)
  : join(here, '..', '..', '.cache', 'corpus-node');

const requireFromInstall = createRequire(join(nodeDir, 'package.json'));

/** Loads a pinned package from the install, failing with the fix when it is missing. */
export function lib(name) {
  try {
    return requireFromInstall(name);
  } catch (e) {
    if (e.code === 'MODULE_NOT_FOUND') {
      console.error(
        `corpus tools are not installed in '${nodeDir}' (${name} not found); run: bash scripts/install-corpus-tools.sh`,
      );
      process.exit(3);
    }
    throw e;
  }
}

/** "electrodb@3.9.3": the installed version, read from the package itself. */
export function libraryLabel(name) {
  const pkg = JSON.parse(readFileSync(join(nodeDir, 'node_modules', name, 'package.json'), 'utf8'));
  return `${pkg.name}@${pkg.version}`;
}

// The clock: every `new Date()` and `Date.now()` reads `now`, which only the generators move,
// so timestamps a library stamps on an item are the same on every run.
const RealDate = Date;
let now = RealDate.parse('2026-01-05T09:00:00.000Z');
class FrozenDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(now);
    else super(...args);
  }
  static now() {
    return now;
  }
}
// Libraries that read a schema's `type: Date` by its name (OneTable) still see a Date.
Object.defineProperty(FrozenDate, 'name', { value: 'Date' });
globalThis.Date = FrozenDate;

/** Sets the frozen clock to an ISO instant. */
export function setClock(iso) {
  const t = RealDate.parse(iso);
  if (Number.isNaN(t)) throw new Error(`bad clock instant '${iso}'`);
  now = t;
}

/** Moves the frozen clock forward. */
export function advanceClock(ms) {
  now += ms;
}

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Nothing a library does may depend on real randomness either.
Math.random = prng(0x5eed);

/** A random-looking but reproducible RFC 4122 version-4 UUID. */
export function uuid(rand) {
  const hex = Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(rand() * 4)];
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

// Time-sortable ids in ULID's alphabet, from the frozen clock and a seeded PRNG (the libraries'
// own ULID generators draw from crypto, which would change every run).
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export function ulid(rand) {
  let t = Date.now();
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD[Math.floor(rand() * 32)];
  return time + tail;
}

export function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

export function int(rand, lo, hi) {
  return lo + Math.floor(rand() * (hi - lo + 1));
}

/**
 * DynamoDB JSON for an item a library built for the DocumentClient, with the options
 * lib-dynamodb's DynamoDBDocumentClient marshalls with by default (none set).
 */
export function toDynamoJson(item) {
  const { marshall } = lib('@aws-sdk/util-dynamodb');
  return marshall(item);
}

/** A CreateTable input for a table whose key and index attributes are all strings. */
export function createTableInput(tableName, [hash, range], indexes) {
  const names = new Set([hash, range].filter(Boolean));
  const keySchema = (h, r) => [
    { AttributeName: h, KeyType: 'HASH' },
    ...(r ? [{ AttributeName: r, KeyType: 'RANGE' }] : []),
  ];
  const gsis = Object.entries(indexes).map(([IndexName, [h, r]]) => {
    names.add(h);
    if (r) names.add(r);
    return { IndexName, KeySchema: keySchema(h, r), Projection: { ProjectionType: 'ALL' } };
  });
  return {
    TableName: tableName,
    KeySchema: keySchema(hash, range),
    AttributeDefinitions: [...names].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
    ...(gsis.length ? { GlobalSecondaryIndexes: gsis } : {}),
    BillingMode: 'PAY_PER_REQUEST',
  };
}

/**
 * A DocumentClient as an application would hand to a library. The generators only build
 * requests, never send them; the endpoint is a closed local port all the same.
 */
export function documentClient() {
  const { DynamoDBDocumentClient } = lib('@aws-sdk/lib-dynamodb');
  return DynamoDBDocumentClient.from(dynamoClient());
}

/** The plain v3 client behind `documentClient`, for libraries that take one. */
export function dynamoClient() {
  const { DynamoDBClient } = lib('@aws-sdk/client-dynamodb');
  return new DynamoDBClient({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: { accessKeyId: 'corpus', secretAccessKey: 'corpus' },
  });
}
